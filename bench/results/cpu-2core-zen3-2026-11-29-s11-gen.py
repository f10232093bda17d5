# Generates mbg.cpp: the fast sums' AVX2 loop alone for tiles of MRV vectors of rows x NC columns,
# the sums rotating through spare registers (nfree), columns forward or alternating; run with
# python3 gen.py && g++ -O2 -o mbg mbg.cpp && taskset -c 1 ./mbg (cycles an entry-term at 3.1 GHz).
import sys
# tile MRV x NC (vectors of rows x columns); S regs P0..P(E) rotating (E = MRV*NC entry vectors, one free), R regs, a regs, b reg
def kernel(name, MRV, NC, copy, U=4, alt=True, nfree=1):
    E = MRV * NC
    R = [E + nfree + e for e in range(E)]
    A = [2 * E + nfree + v for v in range(MRV)]
    B = 2 * E + nfree + MRV
    assert B <= 15, (name, B)
    lines = []
    loc = {e: e for e in range(E)}   # entry vector -> register
    free = list(range(E, E + nfree))
    for L in range(U):
        for v in range(MRV):
            lines.append(f"vmovupd {(L*MRV+v)*32}(%[a]), %%ymm{A[v]}")
        order = list(range(NC)) if (L % 2 == 0 or not alt) else list(reversed(range(NC)))
        for c in order:
            boff = (L * NC + c) * 8
            lines.append(f"vbroadcastsd {boff}(%[b]), %%ymm{B}")
            vs = list(range(MRV)) if (L % 2 == 0 or not alt) else list(reversed(range(MRV)))
            for v in vs:
                e = c * MRV + v
                S, F = loc[e], free.pop(0)
                if copy == 'mov':
                    lines.append(f"vmovapd %%ymm{B}, %%ymm{F}")
                elif copy == 'xor':
                    lines.append(f"vxorpd %%ymm{F}, %%ymm{F}, %%ymm{F}")
                else:
                    lines.append(f"vbroadcastsd {boff}(%[b]), %%ymm{F}")
                lines.append(f"vfmadd213pd %%ymm{S}, %%ymm{A[v]}, %%ymm{F}")
                lines.append(f"vsubpd %%ymm{S}, %%ymm{F}, %%ymm{S}")
                lines.append(f"vfmsub231pd %%ymm{B}, %%ymm{A[v]}, %%ymm{S}")
                lines.append(f"vaddpd %%ymm{S}, %%ymm{R[e]}, %%ymm{R[e]}")
                loc[e] = F; free.append(S)
    assert all(loc[e] == e for e in range(E)) and free == list(range(E, E + nfree)), (loc, free)
    body = "".join(f'"{l}\\n\\t"\n' for l in lines)
    ld = "".join(f'"vmovupd {e*32}(%[sr]), %%ymm{e}\\n\\t vmovupd {(E+e)*32}(%[sr]), %%ymm{R[e]}\\n\\t"\n' for e in range(E))
    st = "".join(f'"vmovupd %%ymm{e}, {e*32}(%[sr])\\n\\t vmovupd %%ymm{R[e]}, {(E+e)*32}(%[sr])\\n\\t"\n' for e in range(E))
    return f'''__attribute__((noinline)) void {name}(int64_t kc, const double *a, const double *b, double *sr)
{{
  int64_t it = kc / {U};
  asm volatile({ld}"1:\\n\\t"
{body}"add ${U*MRV*32}, %[a]\\n\\t add ${U*NC*8}, %[b]\\n\\t dec %[p]\\n\\t jnz 1b\\n\\t"
{st}: [a] "+r"(a), [b] "+r"(b), [p] "+r"(it) : [sr] "r"(sr)
    : "xmm0","xmm1","xmm2","xmm3","xmm4","xmm5","xmm6","xmm7","xmm8","xmm9","xmm10","xmm11","xmm12","xmm13","xmm14","xmm15","memory","cc");
}}
'''
variants = [("k44c",1,4,"mov",4,False,4),("k83m",2,3,"mov",4),("k83f",2,3,"mov",7,False),("k82m",2,2,"mov",4),("k82f",2,2,"mov",5,False),("k82c",2,2,"mov",4,False,4),("k82c2",2,2,"mov",6,False,2),("k46f",1,6,"mov",7,False)]
out = ['#include <chrono>\n#include <cstdio>\n#include <cstdint>\n#include <vector>\n#include <cstdlib>\n']
for v in variants: out.append(kernel(*v))
out.append('''template <class F> double best(F f, int entries)
{
  std::vector<double> ap(8 * 256), bp(6 * 256);
  for (auto &x : ap) x = drand48() * 2 - 1;
  for (auto &x : bp) x = drand48() * 2 - 1;
  double sr[64]; for (int i = 0; i < 64; ++i) sr[i] = i < 32 ? 1024.0 * 1.5 : 0.0;
  double b = 1e30;
  for (int t = 0; t < 7; ++t) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 100000; ++i) f(252, ap.data(), bp.data(), sr);
    auto t1 = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / 100000 / 252;
    if (ns < b) b = ns;
  }
  return b * 3.1 / entries;
}
int main()
{
''')
for (n,mrv,nc,c,*rest) in variants:
    out.append(f'  std::printf("{n} %.4f\\n", best({n}, {mrv*nc*4}));\n')
out.append('}\n')
open('mbg.cpp','w').write("".join(out))
