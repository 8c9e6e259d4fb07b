//! The inner loops of the network: accumulator updates and the output
//! layer, each with a portable version and, on x86-64 processors with
//! AVX2, a faster one chosen at run time. Both give the same bits. A
//! WebAssembly module built with SIMD (`-C target-feature=+simd128`, as
//! `web/build.sh` does) has its own output layer, fixed at compile time
//! (a module cannot choose at run time); its accumulator loops are the
//! portable ones, which the compiler vectorises for simd128 by itself.
//!
//! The accumulator loops are written once, plainly, and compiled twice:
//! as they are (SSE2 on x86-64, 8 values per instruction) and inside a
//! function compiled for AVX2 (16 values per instruction), the pattern of
//! [`crate::evaluate_with`]. Wrapping i16 additions give the same result
//! in any order, so every copy equals [`Network::refresh`].
//!
//! The output layer needs `_mm256_madd_epi16`, which the compiler does not
//! find by itself, so its AVX2 copy is written with intrinsics.
//!
//! [`Network::refresh`]: super::Network::refresh

use super::network::{squared_activation, Row, HIDDEN};
// Only the AVX2 output layer names the clamp's bound; other targets would
// warn about an unused import.
#[cfg(any(
    target_arch = "x86_64",
    all(target_family = "wasm", target_feature = "simd128")
))]
use super::network::QFT;

/// Whether the processor has AVX2 (answered from a cache after the first
/// call).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// Defines `$name`, which runs the portable `$generic` or, when the
/// processor has AVX2, the same code compiled for AVX2 (`$avx2`).
macro_rules! dispatch {
    ($(#[$doc:meta])* fn $name:ident / $avx2:ident = $generic:ident($($arg:ident: $ty:ty),*)) => {
        #[doc = concat!("`", stringify!($generic), "` compiled for AVX2.")]
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        fn $avx2($($arg: $ty),*) {
            $generic($($arg),*)
        }

        $(#[$doc])*
        #[inline]
        pub(crate) fn $name($($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            {
                if has_avx2() {
                    // SAFETY: the processor supports AVX2, the only
                    // feature this copy is compiled for (checked just
                    // above).
                    return unsafe { $avx2($($arg),*) };
                }
            }
            $generic($($arg),*)
        }
    };
}

#[inline(always)]
fn add_generic(acc: &mut [i16; HIDDEN], row: &Row) {
    for (a, w) in acc.iter_mut().zip(&row.0) {
        *a = a.wrapping_add(*w);
    }
}

#[inline(always)]
fn sub_generic(acc: &mut [i16; HIDDEN], row: &Row) {
    for (a, w) in acc.iter_mut().zip(&row.0) {
        *a = a.wrapping_sub(*w);
    }
}

#[inline(always)]
fn sub_add_generic(out: &mut [i16; HIDDEN], parent: &[i16; HIDDEN], sub: &Row, add: &Row) {
    let rows = sub.0.iter().zip(&add.0);
    for ((o, p), (s, a)) in out.iter_mut().zip(parent).zip(rows) {
        *o = p.wrapping_sub(*s).wrapping_add(*a);
    }
}

#[inline(always)]
fn sub_sub_add_generic(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    sub1: &Row,
    sub2: &Row,
    add: &Row,
) {
    for i in 0..HIDDEN {
        out[i] = parent[i]
            .wrapping_sub(sub1.0[i])
            .wrapping_sub(sub2.0[i])
            .wrapping_add(add.0[i]);
    }
}

/// Values summed in registers at a time by [`sum_rows_generic`]: 128 i16
/// are 8 of the 16 AVX2 registers or all 16 SSE2 ones, so the sum of a
/// chunk stays in registers until it is stored (256 would spill in the
/// portable copy).
const CHUNK: usize = 128;

#[inline(always)]
fn sum_rows_generic(out: &mut [i16; HIDDEN], bias: &Row, table: &[Row], features: &[u16]) {
    for c in (0..HIDDEN).step_by(CHUNK) {
        let mut sum = [0i16; CHUNK];
        sum.copy_from_slice(&bias.0[c..c + CHUNK]);
        for &f in features {
            let row = &table[usize::from(f)].0[c..c + CHUNK];
            for (s, w) in sum.iter_mut().zip(row) {
                *s = s.wrapping_add(*w);
            }
        }
        out[c..c + CHUNK].copy_from_slice(&sum);
    }
}

dispatch!(
    /// `out = bias + Σ table[f]` over `features` (wrapping): an
    /// accumulator from scratch. Chunk by chunk, so each chunk's sum stays
    /// in registers while every row is added (a row at a time through
    /// memory cost three times the instructions, callgrind).
    ///
    /// # Panics
    /// Panics if a feature is not an index of `table`.
    fn sum_rows / sum_rows_avx2 = sum_rows_generic(
        out: &mut [i16; HIDDEN], bias: &Row, table: &[Row], features: &[u16]
    )
);
dispatch!(
    /// `acc += row` (wrapping).
    fn add / add_avx2 = add_generic(acc: &mut [i16; HIDDEN], row: &Row)
);
dispatch!(
    /// `acc -= row` (wrapping).
    fn sub / sub_avx2 = sub_generic(acc: &mut [i16; HIDDEN], row: &Row)
);
dispatch!(
    /// `out = parent - sub + add` in one pass: a quiet move.
    fn sub_add / sub_add_avx2 = sub_add_generic(
        out: &mut [i16; HIDDEN], parent: &[i16; HIDDEN], sub: &Row, add: &Row
    )
);
dispatch!(
    /// `out = parent - sub1 - sub2 + add` in one pass: a capture.
    fn sub_sub_add / sub_sub_add_avx2 = sub_sub_add_generic(
        out: &mut [i16; HIDDEN], parent: &[i16; HIDDEN], sub1: &Row, sub2: &Row, add: &Row
    )
);

/// `Σ u · w` with `u = squared_activation(x)` (`0..=254`) over both
/// accumulators (side to move's first) and the two halves of the output
/// weights, in i32 with wrapping: the sum of [`super::Network::output`].
#[inline]
pub(crate) fn screlu_dot(us: &[i16; HIDDEN], them: &[i16; HIDDEN], weights: &[Row; 2]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2() {
            // SAFETY: the processor supports AVX2, the only feature this
            // copy is compiled for (checked just above).
            return unsafe { screlu_dot_avx2(us, them, weights) };
        }
    }
    screlu_dot_fallback(us, them, weights)
}

/// The output sum where no run-time choice is made: the portable sum, or
/// the simd128 one in a WebAssembly module built with SIMD.
#[cfg(not(all(target_family = "wasm", target_feature = "simd128")))]
use screlu_dot_generic as screlu_dot_fallback;
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
use screlu_dot_simd128 as screlu_dot_fallback;

/// The portable output sum, term by term as the reference computes it.
#[cfg_attr(
    all(target_family = "wasm", target_feature = "simd128"),
    allow(dead_code)
)]
pub(crate) fn screlu_dot_generic(
    us: &[i16; HIDDEN],
    them: &[i16; HIDDEN],
    weights: &[Row; 2],
) -> i32 {
    let xs = us.iter().chain(them);
    let ws = weights[0].0.iter().chain(&weights[1].0);
    xs.zip(ws).fold(0i32, |sum, (x, w)| {
        // |u · w| ≤ 254 · 32768 < 2³¹: only the sum can wrap.
        sum.wrapping_add(squared_activation(*x) * i32::from(*w))
    })
}

/// [`screlu_dot_generic`] with AVX2, 16 values at a time: `x` clipped to
/// `0..=QFT` (10 bits) and shifted left by 6 fits an unsigned 16-bit lane,
/// so `_mm256_mulhi_epu16` of it with itself is `x² · 4096 / 65536 = x² / 16`
/// exactly (floored, at most 65025); adding 128 (no carry out of 16 bits)
/// and shifting right by 8 gives `u`; `_mm256_madd_epi16` then multiplies
/// by the weights and adds neighbouring pairs into i32 lanes (each pair
/// ≤ 2 · 254 · 32768, exact). The lanes and then their total add with
/// wrapping, so the result equals the portable sum bit for bit.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2(us: &[i16; HIDDEN], them: &[i16; HIDDEN], weights: &[Row; 2]) -> i32 {
    use std::arch::x86_64::*;
    const LANES: usize = 16;
    let zero = _mm256_setzero_si256();
    let qft = _mm256_set1_epi16(QFT as i16);
    let half = _mm256_set1_epi16(128);
    let mut sum = _mm256_setzero_si256();
    for (acc, w) in [(us, &weights[0]), (them, &weights[1])] {
        for i in (0..HIDDEN).step_by(LANES) {
            // SAFETY: `i + LANES <= HIDDEN`, so both reads of 32 bytes
            // stay inside their arrays; `loadu` has no alignment needs.
            let (x, w) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(w.0.as_ptr().add(i).cast()),
                )
            };
            let clipped = _mm256_min_epi16(_mm256_max_epi16(x, zero), qft);
            let scaled = _mm256_slli_epi16::<6>(clipped);
            let x2_16 = _mm256_mulhi_epu16(scaled, scaled);
            let u = _mm256_srli_epi16::<8>(_mm256_add_epi16(x2_16, half));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(u, w));
        }
    }
    let lanes: [i32; 8] = lanes_i32(sum);
    lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
}

/// [`screlu_dot_generic`] with WebAssembly SIMD, 8 values at a time: `x`
/// clipped to `0..=QFT`, squared exactly in u32 lanes (at most 1020² =
/// 1,040,400), `((x² >> 4) + 128) >> 8` as [`squared_activation`] computes
/// it (at most 254), narrowed back to 16-bit lanes, and
/// `i32x4_dot_i16x8` multiplies by the weights and adds neighbouring pairs
/// into i32 lanes (each pair ≤ 2 · 254 · 32768, exact). The lanes and then
/// their total add with wrapping, so the result equals the portable sum
/// bit for bit.
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
fn screlu_dot_simd128(us: &[i16; HIDDEN], them: &[i16; HIDDEN], weights: &[Row; 2]) -> i32 {
    use std::arch::wasm32::*;
    const LANES: usize = 8;
    let zero = i16x8_splat(0);
    let qft = i16x8_splat(QFT as i16);
    let half = u32x4_splat(128);
    let mut sum = i32x4_splat(0);
    for (acc, w) in [(us, &weights[0]), (them, &weights[1])] {
        for i in (0..HIDDEN).step_by(LANES) {
            // SAFETY: `i + LANES <= HIDDEN`, so both reads of 16 bytes
            // stay inside their arrays; `v128_load` has no alignment needs.
            let (x, w) = unsafe {
                (
                    v128_load(acc.as_ptr().add(i).cast()),
                    v128_load(w.0.as_ptr().add(i).cast()),
                )
            };
            let clipped = i16x8_min(i16x8_max(x, zero), qft);
            let lo = u32x4_extmul_low_u16x8(clipped, clipped);
            let hi = u32x4_extmul_high_u16x8(clipped, clipped);
            let lo = u32x4_shr(u32x4_add(u32x4_shr(lo, 4), half), 8);
            let hi = u32x4_shr(u32x4_add(u32x4_shr(hi, 4), half), 8);
            let u = u16x8_narrow_i32x4(lo, hi);
            sum = i32x4_add(sum, i32x4_dot_i16x8(u, w));
        }
    }
    [
        i32x4_extract_lane::<0>(sum),
        i32x4_extract_lane::<1>(sum),
        i32x4_extract_lane::<2>(sum),
        i32x4_extract_lane::<3>(sum),
    ]
    .iter()
    .fold(0i32, |s, &x| s.wrapping_add(x))
}

/// The eight i32 lanes of a 256-bit register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn lanes_i32(v: std::arch::x86_64::__m256i) -> [i32; 8] {
    let mut out = [0i32; 8];
    // SAFETY: `out` is 32 bytes, the size of the register; `storeu` has
    // no alignment needs.
    unsafe { std::arch::x86_64::_mm256_storeu_si256(out.as_mut_ptr().cast(), v) };
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::test_support::{random_bucketed_network, Rng};

    fn random_values(rng: &mut Rng, lo: i64, hi: i64) -> [i16; HIDDEN] {
        let mut out = [0i16; HIDDEN];
        for v in &mut out {
            *v = (lo + (rng.next_u64() % (hi - lo + 1) as u64) as i64) as i16;
        }
        out
    }

    #[test]
    fn every_copy_of_the_output_sum_agrees() {
        // Three buckets, each with its own row: every copy reads the row
        // it is given.
        let net = random_bucketed_network(5, 3);
        let mut rng = Rng::new(99);
        for round in 0..200 {
            let bucket = round % 3;
            let weights = &net.out_weights[bucket];
            // Values around the clipping bounds, and the extremes of i16.
            let (lo, hi) = if round % 2 == 0 {
                (-300, 1400)
            } else {
                (-32768, 32767)
            };
            let us = random_values(&mut rng, lo, hi);
            let them = random_values(&mut rng, lo, hi);
            let want = screlu_dot_generic(&us, &them, weights);
            assert_eq!(screlu_dot(&us, &them, weights), want);
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                // SAFETY: AVX2 is present (checked just above).
                assert_eq!(unsafe { screlu_dot_avx2(&us, &them, weights) }, want);
            }
            let mut reference = net.clone();
            reference.out_bias = vec![0; 3];
            if round % 2 == 0 {
                // The reference's i32 sum cannot overflow here.
                assert_eq!(
                    reference.scale_output(want, bucket),
                    reference.output(&us, &them, bucket)
                );
            }
        }
    }

    #[test]
    fn every_copy_of_the_updates_agrees() {
        let mut rng = Rng::new(3);
        let row = |rng: &mut Rng| Row(random_values(rng, -32768, 32767));
        for _ in 0..50 {
            let parent = random_values(&mut rng, -32768, 32767);
            let (a, b, c) = (row(&mut rng), row(&mut rng), row(&mut rng));
            let mut want = parent;
            sub_generic(&mut want, &a);
            sub_generic(&mut want, &b);
            add_generic(&mut want, &c);
            let mut got = [0i16; HIDDEN];
            sub_sub_add(&mut got, &parent, &a, &b, &c);
            assert_eq!(got, want);
            let mut step = parent;
            sub(&mut step, &a);
            sub(&mut step, &b);
            add(&mut step, &c);
            assert_eq!(step, want);
            let mut want = parent;
            sub_generic(&mut want, &a);
            add_generic(&mut want, &c);
            sub_add(&mut got, &parent, &a, &c);
            assert_eq!(got, want);
        }
    }

    #[test]
    fn every_copy_of_the_row_sum_agrees() {
        // Sums of 0 to 40 rows of the full i16 range (so they wrap), a row
        // repeated, against adding them one by one.
        let mut rng = Rng::new(8);
        let table: Vec<Row> = (0..64)
            .map(|_| Row(random_values(&mut rng, -32768, 32767)))
            .collect();
        let bias = Row(random_values(&mut rng, -32768, 32767));
        for n in [0, 1, 2, 7, 32, 40] {
            let features: Vec<u16> = (0..n).map(|_| rng.index(64) as u16).collect();
            let mut want = bias.0;
            for &f in &features {
                add_generic(&mut want, &table[usize::from(f)]);
            }
            assert!(n == 0 || want != bias.0);
            let mut got = [0i16; HIDDEN];
            sum_rows(&mut got, &bias, &table, &features);
            assert_eq!(got, want, "{n} rows");
            let mut generic = [0i16; HIDDEN];
            sum_rows_generic(&mut generic, &bias, &table, &features);
            assert_eq!(generic, want, "{n} rows");
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                let mut avx2 = [0i16; HIDDEN];
                // SAFETY: AVX2 is present (checked just above).
                unsafe { sum_rows_avx2(&mut avx2, &bias, &table, &features) };
                assert_eq!(avx2, want, "{n} rows");
            }
        }
    }
}
