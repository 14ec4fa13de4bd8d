/* stencil.c — GPU benchmark: the Parboil 7-point stencil of OpenUH (seeds/002 §5.2; small version
 * in samples/openuh/stencil.c) at a size that fills a GPU, for `--loop-map map3_*`.
 *
 *   Anext[x,y,z] = c1 * (six face neighbours of A0) - c0 * A0[x,y,z]   on the interior.
 *
 * As in the paper the data are x-fastest but the nest runs x outermost, z innermost, so only the
 * OUTERMOST loop walks contiguous memory: Map3_3 (vector lanes on the outermost loop) is the
 * paper's best. Loops x, y, z are `gang` / `worker` / `vector` (spec-conforming), one perfect
 * nest: every Map3 mapping applies. Sizes: -DNX= -DNY= -DNZ= (default 512×512×256: 1 GiB of
 * doubles), -DITERS=, -DGANGS= -DWORKERS= -DVL=. -DBENCH_TIMING prints the time per sweep.
 * Bytes counted per sweep: 16 per interior point.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef NX
#define NX 512L
#endif
#ifndef NY
#define NY 512L
#endif
#ifndef NZ
#define NZ 256L
#endif
#ifndef ITERS
#define ITERS 10
#endif
#ifndef GANGS
#define GANGS 65536
#endif
#ifndef WORKERS
#define WORKERS 4
#endif
#ifndef VL
#define VL 128
#endif

#define IDX(x, y, z) ((x) + nx * ((y) + ny * (z)))

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void) {
    long nx = NX, ny = NY, nz = NZ;
    long total = nx * ny * nz;
    const double c0 = 0.5, c1 = 0.125;
    double *a0 = malloc(total * sizeof(double));
    double *an = malloc(total * sizeof(double));
    if (!a0 || !an) return 1;
    double sum = 0.0;
    #pragma acc data create(a0[0:total], an[0:total])
    {
        #pragma acc parallel loop gang vector num_gangs(GANGS) vector_length(VL) present(a0[0:total], an[0:total])
        for (long i = 0; i < total; i++) {
            double v = (double)(i % 16);
            a0[i] = v;
            an[i] = v;
        }
        double *in = a0, *out = an;
        double t0 = now();
        for (int t = 0; t < ITERS; t++) {
            #pragma acc parallel num_gangs(GANGS) num_workers(WORKERS) vector_length(VL) present(in[0:total], out[0:total])
            {
                #pragma acc loop gang
                for (long x = 1; x < nx - 1; x++) {
                    #pragma acc loop worker
                    for (long y = 1; y < ny - 1; y++) {
                        #pragma acc loop vector
                        for (long z = 1; z < nz - 1; z++)
                            out[IDX(x, y, z)] = c1 * (in[IDX(x, y, z + 1)] + in[IDX(x, y, z - 1)] + in[IDX(x, y + 1, z)] +
                                                      in[IDX(x, y - 1, z)] + in[IDX(x + 1, y, z)] + in[IDX(x - 1, y, z)]) -
                                                c0 * in[IDX(x, y, z)];
                    }
                }
            }
            double *tmp = in;
            in = out;
            out = tmp;
        }
        double t1 = now();
        #pragma acc parallel loop gang vector num_gangs(GANGS) vector_length(VL) present(in[0:total]) reduction(+:sum)
        for (long i = 0; i < total; i++)
            sum += in[i];
#ifdef BENCH_TIMING
        double bytes = 16.0 * (double)(nx - 2) * (double)(ny - 2) * (double)(nz - 2) * ITERS;
        fprintf(stderr, "stencil %ldx%ldx%ld ITERS=%d: %.3f ms per sweep, %.1f GB/s\n", nx, ny, nz, ITERS, 1e3 * (t1 - t0) / ITERS, bytes / (t1 - t0) / 1e9);
#else
        (void)t0;
        (void)t1;
#endif
    }
    printf("stencil: sum = %.10e\n", sum);
    free(a0);
    free(an);
    return 0;
}
