/* stencil.c — OpenUH benchmark 4 of 6: the Parboil 7-point 3-D stencil (small size).
 *
 * From Tian et al. (seeds/002, §5.2: Stencil 512x512x64, "Stencil benchmark from [13]", Parboil).
 * Here 64x64x16, 3 time steps (-DNX= -DNY= -DNZ= -DITERS=).
 *   Anext[x,y,z] = c1 * (six face neighbours of A0) - c0 * A0[x,y,z]   on the interior.
 * The data are stored x-fastest (index x + nx*(y + ny*z)) but, as the paper points out, the loop
 * nest runs x outermost and z innermost, so only the OUTERMOST loop walks contiguous memory. The
 * paper's best mapping for it, Map3_3, puts the vector lanes on that outermost loop. OpenACC 2.0
 * allows no partitioned loop inside a vector loop (§2.7.4), so here the x loop is `gang vector`
 * (consecutive threads, consecutive x: coalesced) and each thread runs y and z with `loop seq`.
 * A0 and Anext swap roles every step; both stay on the device (`data`, §2.6.3).
 * c0 = 1/2 and c1 = 1/8 keep the arithmetic exact.
 *
 * Expected output: gcc-derived (see ../acc/README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef NX
#define NX 64
#endif
#ifndef NY
#define NY 64
#endif
#ifndef NZ
#define NZ 16
#endif
#ifndef ITERS
#define ITERS 3
#endif

#define IDX(x, y, z) ((x) + nx * ((y) + ny * (z)))

int main(void) {
    int nx = NX, ny = NY, nz = NZ;
    size_t total = (size_t)nx * ny * nz;
    const double c0 = 0.5, c1 = 0.125;
    double *a0 = malloc(total * sizeof *a0);
    double *an = malloc(total * sizeof *an);
    if (!a0 || !an) return 1;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                double v = (double)((x * 3 + y * 5 + z * 7) % 16);
                a0[IDX(x, y, z)] = v;
                an[IDX(x, y, z)] = v;    /* boundary values never change */
            }

    double *in = a0, *out = an;
#pragma acc data copy(a0[0:total], an[0:total])
    for (int t = 0; t < ITERS; t++) {
#pragma acc parallel loop gang vector present(in[0:total], out[0:total])
        for (int x = 1; x < nx - 1; x++) {
#pragma acc loop seq
            for (int y = 1; y < ny - 1; y++) {
#pragma acc loop seq
                for (int z = 1; z < nz - 1; z++)
                    out[IDX(x, y, z)] =
                        c1 * (in[IDX(x, y, z + 1)] + in[IDX(x, y, z - 1)] +
                              in[IDX(x, y + 1, z)] + in[IDX(x, y - 1, z)] +
                              in[IDX(x + 1, y, z)] + in[IDX(x - 1, y, z)]) -
                        c0 * in[IDX(x, y, z)];
            }
        }
        double *tmp = in;
        in = out;
        out = tmp;
    }

    double sum = 0.0;
    for (size_t i = 0; i < total; i++) sum += in[i];
    printf("stencil %dx%dx%d, %d steps: A[1][1][1] = %.6f, A[%d][%d][%d] = %.6f\n", nx, ny, nz, ITERS,
           in[IDX(1, 1, 1)], nx / 2, ny / 2, nz / 2, in[IDX(nx / 2, ny / 2, nz / 2)]);
    printf("checksum = %.6f\n", sum);
    free(a0);
    free(an);
    return 0;
}
