/* 28_nested_members.c — nested struct members and member subarrays in data and kernels regions.
 *
 * Teaches: a data clause may name a member at any depth of a struct variable that is automatic,
 * static or global — `g.in.v[0:g.n]` is a subarray of the pointer member `v` of the member
 * struct `in` of `g` — and a subarray of a member array, `g.w[1:2]` (§2.6.5, restrictions:
 * "a member of a struct or class may be specified, including a subarray of a member"). Naming
 * members maps those bytes only: the struct is not copied as a whole, and each member the
 * region uses gets its own data attribute (`accsim info` lists them):
 *   - a pointer member whose target is mapped is used by value and points at the device copy;
 *   - a member named in a clause of the construct or of an enclosing data construct is present;
 *   - any other member gets the implicit attribute of its type — arrays present_or_copy (§2.6.1),
 *     scalars firstprivate in `parallel` (§2.5.1) and copied in `kernels` (§2.5.2), so the
 *     kernels region's write to `g.in.len` and `g.count` comes back to the host.
 * The struct `cfg` is a global; its member array `cfg.coef` is mapped by a data construct and
 * updated with `update device(cfg.coef[0:2])` (§2.11), `cfg.bias` is read as firstprivate.
 * A struct named whole, `copyin(h)`, is copied with its pointer member's host address; the data
 * that member points to is not (§2.6.5: "the data addressed by that pointer are not implicitly
 * copied"), so `copy(h.v[0:4])` maps it, and the region uses the pointer value that points at
 * the device copy (as nvc attaches it). (gcc wants `h` and `h.v[…]` on different constructs.)
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#define N 64

struct vec {
    int len;
    double *v;
};

struct grid {
    int n;
    double scale;
    struct vec in;
    struct vec out;
    double w[4];
    long count;
};

struct config {
    double coef[4];
    double bias;
};

struct config cfg = {{1.0, 0.5, 0.25, 0.125}, 0.75};

int main(void) {
    struct grid g;
    g.n = N;
    g.scale = 2.0;
    g.count = 0;
    g.in.len = 0;
    g.in.v = malloc(N * sizeof(double));
    g.out.len = N;
    g.out.v = malloc(N * sizeof(double));
    if (!g.in.v || !g.out.v) return 1;
    for (int i = 0; i < N; i++) {
        g.in.v[i] = (double)(i % 7);
        g.out.v[i] = 0.0;
    }
    for (int k = 0; k < 4; k++) g.w[k] = 10.0 * (k + 1);

    /* A data region maps the pointed-to data of two nested pointer members (§2.6.3, §2.6.5.3,
     * §2.6.5.4) and the global member array cfg.coef (§2.6.5.3). */
#pragma acc data copyin(g.in.v[0:g.n], cfg.coef) copyout(g.out.v[0:g.n])
    {
        /* kernels (§2.5.2): g.in.v and g.out.v are present through the data region; g.scale is
         * a scalar member, copied; g.w is a member array, present_or_copy; g.in.len and g.count
         * are written and copied back. */
#pragma acc kernels
        {
#pragma acc loop independent
            for (int i = 0; i < g.n; i++)
                g.out.v[i] = g.scale * g.in.v[i] + g.w[i % 4] * cfg.coef[i % 4];
            g.in.len = g.n;
            g.count = g.count + 1;
        }
        /* Only the first four results come home here (§2.11); the rest at the data exit. */
#pragma acc update host(g.out.v[0:4])
        printf("after kernels: out[0..3] = %.3f %.3f %.3f %.3f, in.len = %d, count = %ld\n",
               g.out.v[0], g.out.v[1], g.out.v[2], g.out.v[3], g.in.len, g.count);

        cfg.coef[0] = 4.0;
        cfg.coef[1] = 3.0;
#pragma acc update device(cfg.coef[0:2])

        /* parallel (§2.5.1): present() of a nested member's subarray, a subarray of a member
         * array (g.w[1:2]: elements 1 and 2 only), cfg.bias firstprivate. */
#pragma acc parallel loop present(g.in.v[0:g.n], g.out.v[0:g.n]) copyin(g.w[1:2])
        for (int i = 0; i < g.n; i++)
            g.out.v[i] = g.out.v[i] + g.in.v[i] * cfg.coef[i % 2] + g.w[1 + i % 2] + cfg.bias;
    }

    double s = 0.0;
    for (int i = 0; i < g.n; i++) s += g.out.v[i];
    printf("out[0] = %.3f, out[%d] = %.3f, sum(out) = %.6f\n", g.out.v[0], g.n - 1, g.out.v[g.n - 1], s);

    /* The whole struct, and the data its pointer member addresses (§2.6.5). */
    struct vec h;
    h.len = 4;
    h.v = malloc(4 * sizeof(double));
    if (!h.v) return 1;
    for (int i = 0; i < 4; i++) h.v[i] = i + 1.0;
#pragma acc data copyin(h)
#pragma acc parallel loop copy(h.v[0:4])
    for (int i = 0; i < h.len; i++)
        h.v[i] = h.v[i] * h.len;
    printf("h.v = %.1f %.1f %.1f %.1f\n", h.v[0], h.v[1], h.v[2], h.v[3]);

    free(h.v);
    free(g.in.v);
    free(g.out.v);
    return 0;
}
