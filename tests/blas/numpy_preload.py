"""NumPy with LD_PRELOAD=libexstar_blas.so: A @ B, numpy.dot and numpy.linalg.solve must give
the bits of exstar's own calls (exstar_dgemm, exstar_ddot, exstar_dgesv without refinement),
called here through ctypes on libexstar.so, the library libexstar_blas runs on.
Usage: LD_PRELOAD=.../libexstar_blas.so python3 numpy_preload.py .../libexstar.so"""
import ctypes
import hashlib
import sys

import numpy as np

ex = ctypes.CDLL(sys.argv[1])
dp = ctypes.POINTER(ctypes.c_double)
i64 = ctypes.c_int64
ex.exstar_dgemm.argtypes = [ctypes.c_char, ctypes.c_char, i64, i64, i64, ctypes.c_double, dp, i64, dp, i64,
                            ctypes.c_double, dp, i64]
ex.exstar_ddot.argtypes = [i64, dp, i64, dp, i64, dp]
ex.exstar_dgesv.argtypes = [i64, i64, dp, i64, ctypes.POINTER(ctypes.c_int32), dp, i64, ctypes.c_int,
                            ctypes.POINTER(i64)]

preloaded = ctypes.CDLL(None)
assert hasattr(preloaded, "exstar_blas_init"), "libexstar_blas.so is not preloaded"
assert preloaded.exstar_blas_init() == 0


def ptr(a):
    return a.ctypes.data_as(dp)


def same(a, b):
    return a.shape == b.shape and a.tobytes() == b.tobytes()


rng = np.random.default_rng(26)
digest = hashlib.sha256()
failures = []
for n in (8, 64, 200):
    # ill-conditioned products: large cancelling terms plus small ones
    A = rng.standard_normal((n, n + 3)) * np.exp2(rng.integers(-30, 30, (n, n + 3)))
    B = rng.standard_normal((n + 3, n - 1)) * np.exp2(rng.integers(-30, 30, (n + 3, n - 1)))
    C = A @ B
    # row-major C = A B is column-major C^T = B^T A^T: exstar_dgemm on the same buffers
    W = np.empty_like(C)
    m, k, nn = A.shape[0], A.shape[1], B.shape[1]
    assert ex.exstar_dgemm(b"N", b"N", nn, m, k, 1.0, ptr(B), nn, ptr(A), k, 0.0, ptr(W), nn) == 0
    if not same(C, W):
        failures.append(f"A @ B, n={n}")
    x, y = A[:, 0].copy(), A[:, 1].copy()
    d = np.dot(x, y)
    want = ctypes.c_double()
    assert ex.exstar_ddot(n, ptr(x), 1, ptr(y), 1, ctypes.byref(want)) == 0
    if np.float64(d).tobytes() != np.float64(want.value).tobytes():
        failures.append(f"numpy.dot, n={n}")
    S = rng.standard_normal((n, n)) + n * np.eye(n) * 0.01
    b = rng.standard_normal((n, 2))
    X = np.linalg.solve(S, b)
    F = np.asfortranarray(S.copy())
    G = np.asfortranarray(b.copy())
    piv = (ctypes.c_int32 * n)()
    info = i64()
    assert ex.exstar_dgesv(n, 2, ptr(F), n, piv, ptr(G), n, 0, ctypes.byref(info)) in (0, -8)
    if not same(np.ascontiguousarray(X), np.ascontiguousarray(G)):
        failures.append(f"numpy.linalg.solve, n={n}")
    for r in (C, np.float64(d), X):
        digest.update(np.ascontiguousarray(r).tobytes())

print("results sha256", digest.hexdigest())
if failures:
    print("NOT exstar's bits:", ", ".join(failures))
    sys.exit(1)
print("A @ B, numpy.dot and numpy.linalg.solve give exstar's bits")
