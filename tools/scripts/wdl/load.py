"""Read Shuai's binary training-data format (tools/README.md, "Binary format")
into numpy arrays, with game ids, side-to-move scores/results and material."""
import numpy as np

# Piece::index() = color*7 + kind; kinds: 0 king, 1 advisor, 2 elephant,
# 3 horse, 4 rook, 5 cannon, 6 pawn.
KIND_NAMES = ["king", "advisor", "elephant", "horse", "rook", "cannon", "pawn"]


def load(path):
    raw = np.fromfile(path, dtype=np.uint8)
    assert raw[:8].tobytes() == b"SHUAIPOS", "not a Shuai .bin file"
    hdr_len = int(raw[16:20].view("<u4")[0])
    note = raw[48:hdr_len].tobytes().rstrip(b"\0").decode()
    rec = raw[hdr_len:]
    rec = rec[: len(rec) // 32 * 32].reshape(-1, 32)
    w2 = rec[:, 8:12].copy().view("<u4")[:, 0]          # bits 64..95 of the word
    stm_black = (w2 >> 26) & 1                            # bit 90
    outcome = (w2 >> 27) & 3                              # 0 Black wins, 1 draw, 2 Red wins
    fm_lo = (w2 >> 29) & 7
    b31 = rec[:, 31]
    last = b31 & 1
    fullmove = ((b31 >> 1).astype(np.int64) << 3) | fm_lo
    ply = 2 * (fullmove - 1) + stm_black                  # plies from the game's start position (approx.)
    score_red = rec[:, 28:30].copy().view("<i2")[:, 0].astype(np.int64)
    halfmove = rec[:, 30].astype(np.int64)
    # piece counts: nibbles, unused ones are 0 (= red king), so count codes 1..13 directly
    nib = np.empty((len(rec), 32), dtype=np.uint8)
    nib[:, 0::2] = rec[:, 12:28] & 15
    nib[:, 1::2] = rec[:, 12:28] >> 4
    counts = np.zeros((len(rec), 14), dtype=np.int64)
    for c in range(1, 14):
        counts[:, c] = (nib == c).sum(1)
    counts[:, 0] = 1
    kind_counts = counts[:, :7] + counts[:, 7:]           # both sides, per kind
    game = np.concatenate([[0], np.cumsum(last)[:-1]])
    sign = np.where(stm_black == 1, -1, 1)
    score = score_red * sign                              # side to move's view
    # result from the side to move's view: 1 win, 0.5 draw, 0 loss
    res_red = outcome / 2.0
    res = np.where(stm_black == 1, 1.0 - res_red, res_red)
    return dict(note=note, score=score, res=res, stm_black=stm_black, ply=ply,
                fullmove=fullmove, halfmove=halfmove, kind_counts=kind_counts,
                side_counts=counts, game=game, last=last, outcome=outcome)


if __name__ == "__main__":
    import sys
    d = load(sys.argv[1])
    print(d["note"])
    n = len(d["score"])
    print("positions", n, "games", d["game"][-1] + 1, "complete games", d["last"].sum())
    print("STM result W/D/L", [(d["res"] == v).mean().round(4) for v in (1, .5, 0)])
    print("score pct", np.percentile(d["score"], [0, 1, 5, 25, 50, 75, 95, 99, 100]))
    print("|score|>10000:", (abs(d["score"]) > 10000).sum(), " >3000:", (abs(d["score"]) > 3000).sum())
    print("fullmove pct", np.percentile(d["fullmove"], [0, 5, 25, 50, 75, 95, 100]))
    kc = d["kind_counts"]
    print("mean counts per kind", dict(zip(KIND_NAMES, kc.mean(0).round(2))))
    print("max counts per kind", dict(zip(KIND_NAMES, kc.max(0))))
