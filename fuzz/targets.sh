# The fuzz targets: one per file in fuzz_targets/, so a new target needs no
# list updated. Sourced by run-all.sh and keep-corpus.sh from this folder.
targets=()
for f in fuzz_targets/*.rs; do
  targets+=("$(basename "$f" .rs)")
done
