/* reduction_levels.c — every reduction operator of §2.5.11 on int, float and double, at vector,
 * worker, worker-vector and gang level, and a vector reduction inside a worker loop; plus complex
 * `+`. The CUDA back-end combines the threads of a loop by a block reduction (tests/emit.rs);
 * on a GPU, `accsim validate` compares every result with the simulator's.
 * Floating-point values are small multiples of powers of two: every order of combination gives
 * the same bits.
 */
#include <complex.h>
#include <stdio.h>

#define R 6
#define C 300
#ifndef VL
#define VL 64 /* vector_length of the level tests: -DVL=20 runs the shared-memory tree without shuffles */
#endif
#ifndef VLN
#define VLN 32 /* vector_length of the nested test: 32 is a warp barrier, 64 a named barrier per worker */
#endif

static int ia[C], ib[C], ifac[C];
static float fa[C], ffac[C];
static double da[C], dfac[C];

static int out_i_vector[R * 9];
static int out_i_worker[R * 9];
static int out_i_worker_vector[R * 9];
static float out_f_vector[R * 6];
static float out_f_worker[R * 6];
static float out_f_worker_vector[R * 6];
static double out_d_vector[R * 6];
static double out_d_worker[R * 6];
static double out_d_worker_vector[R * 6];
static int nest_i[R]; static double nest_d[R]; static int gang_i[9]; static double gang_d[6];

static void init(void) {
    for (int j = 0; j < C; j++) {
        int v = (j * 37) % 101 - 50;
        ia[j] = v; ib[j] = ~(1 << (j % 24)) & 0x7fffffff; ifac[j] = j % 50 == 0 ? 2 : 1;
        fa[j] = 0.25f * (float)v; ffac[j] = j % 60 == 0 ? 2.0f : 1.0f;
        da[j] = v / 8.0; dfac[j] = j % 75 == 0 ? 0.5 : 1.0;
    }
}

int main(void) {
    init();
    /* int, vector level */
#pragma acc parallel loop gang num_gangs(3) num_workers(4) vector_length(VL) copyin(ia, ib, ifac) copyout(out_i_vector)
    for (int r = 0; r < R; r++) {
        int s_add = 0, s_mul = 1, s_max = -1000000, s_min = 1000000, s_and = ~0, s_or = 0, s_xor = 0, s_land = 1, s_lor = 0;
#pragma acc loop vector reduction(+:s_add) reduction(*:s_mul) reduction(max:s_max) reduction(min:s_min) reduction(&:s_and) reduction(|:s_or) reduction(^:s_xor) reduction(&&:s_land) reduction(||:s_lor)
        for (int j = 0; j < C - 11 * r; j++) {
            int v = ia[(j + 7 * r) % C]; int f = ifac[(j + r) % C]; int b = ib[(j + r) % C];
            s_add += v; s_mul *= f; s_max = v > s_max ? v : s_max; s_min = v < s_min ? v : s_min; s_and &= b; s_or |= b; s_xor ^= b; s_land = s_land && v; s_lor = s_lor || v == (int)7;
            (void)f; (void)b;
        }
        out_i_vector[r * 9 + 0] = s_add;
        out_i_vector[r * 9 + 1] = s_mul;
        out_i_vector[r * 9 + 2] = s_max;
        out_i_vector[r * 9 + 3] = s_min;
        out_i_vector[r * 9 + 4] = s_and;
        out_i_vector[r * 9 + 5] = s_or;
        out_i_vector[r * 9 + 6] = s_xor;
        out_i_vector[r * 9 + 7] = s_land;
        out_i_vector[r * 9 + 8] = s_lor;
    }
    for (int r = 0; r < R; r++) { printf("int    vector        row %d:", r); for (int k = 0; k < 9; k++) printf(" %d", out_i_vector[r * 9 + k]); printf("\n"); }
    /* int, worker level */
#pragma acc parallel loop gang num_gangs(3) num_workers(4) vector_length(VL) copyin(ia, ib, ifac) copyout(out_i_worker)
    for (int r = 0; r < R; r++) {
        int s_add = 0, s_mul = 1, s_max = -1000000, s_min = 1000000, s_and = ~0, s_or = 0, s_xor = 0, s_land = 1, s_lor = 0;
#pragma acc loop worker reduction(+:s_add) reduction(*:s_mul) reduction(max:s_max) reduction(min:s_min) reduction(&:s_and) reduction(|:s_or) reduction(^:s_xor) reduction(&&:s_land) reduction(||:s_lor)
        for (int j = 0; j < C - 11 * r; j++) {
            int v = ia[(j + 7 * r) % C]; int f = ifac[(j + r) % C]; int b = ib[(j + r) % C];
            s_add += v; s_mul *= f; s_max = v > s_max ? v : s_max; s_min = v < s_min ? v : s_min; s_and &= b; s_or |= b; s_xor ^= b; s_land = s_land && v; s_lor = s_lor || v == (int)7;
            (void)f; (void)b;
        }
        out_i_worker[r * 9 + 0] = s_add;
        out_i_worker[r * 9 + 1] = s_mul;
        out_i_worker[r * 9 + 2] = s_max;
        out_i_worker[r * 9 + 3] = s_min;
        out_i_worker[r * 9 + 4] = s_and;
        out_i_worker[r * 9 + 5] = s_or;
        out_i_worker[r * 9 + 6] = s_xor;
        out_i_worker[r * 9 + 7] = s_land;
        out_i_worker[r * 9 + 8] = s_lor;
    }
    for (int r = 0; r < R; r++) { printf("int    worker        row %d:", r); for (int k = 0; k < 9; k++) printf(" %d", out_i_worker[r * 9 + k]); printf("\n"); }
    /* int, worker vector level */
#pragma acc parallel loop gang num_gangs(3) num_workers(4) vector_length(VL) copyin(ia, ib, ifac) copyout(out_i_worker_vector)
    for (int r = 0; r < R; r++) {
        int s_add = 0, s_mul = 1, s_max = -1000000, s_min = 1000000, s_and = ~0, s_or = 0, s_xor = 0, s_land = 1, s_lor = 0;
#pragma acc loop worker vector reduction(+:s_add) reduction(*:s_mul) reduction(max:s_max) reduction(min:s_min) reduction(&:s_and) reduction(|:s_or) reduction(^:s_xor) reduction(&&:s_land) reduction(||:s_lor)
        for (int j = 0; j < C - 11 * r; j++) {
            int v = ia[(j + 7 * r) % C]; int f = ifac[(j + r) % C]; int b = ib[(j + r) % C];
            s_add += v; s_mul *= f; s_max = v > s_max ? v : s_max; s_min = v < s_min ? v : s_min; s_and &= b; s_or |= b; s_xor ^= b; s_land = s_land && v; s_lor = s_lor || v == (int)7;
            (void)f; (void)b;
        }
        out_i_worker_vector[r * 9 + 0] = s_add;
        out_i_worker_vector[r * 9 + 1] = s_mul;
        out_i_worker_vector[r * 9 + 2] = s_max;
        out_i_worker_vector[r * 9 + 3] = s_min;
        out_i_worker_vector[r * 9 + 4] = s_and;
        out_i_worker_vector[r * 9 + 5] = s_or;
        out_i_worker_vector[r * 9 + 6] = s_xor;
        out_i_worker_vector[r * 9 + 7] = s_land;
        out_i_worker_vector[r * 9 + 8] = s_lor;
    }
    for (int r = 0; r < R; r++) { printf("int    worker_vector row %d:", r); for (int k = 0; k < 9; k++) printf(" %d", out_i_worker_vector[r * 9 + k]); printf("\n"); }
    /* float, vector level */
#pragma acc parallel loop gang num_gangs(3) num_workers(4) vector_length(VL) copyin(fa, ib, ffac) copyout(out_f_vector)
    for (int r = 0; r < R; r++) {
        float s_add = 0, s_mul = 1, s_max = -1000000, s_min = 1000000, s_land = 1, s_lor = 0;
#pragma acc loop vector reduction(+:s_add) reduction(*:s_mul) reduction(max:s_max) reduction(min:s_min) reduction(&&:s_land) reduction(||:s_lor)
        for (int j = 0; j < C - 11 * r; j++) {
            float v = fa[(j + 7 * r) % C]; float f = ffac[(j + r) % C]; int b = ib[(j + r) % C];
            s_add += v; s_mul *= f; s_max = v > s_max ? v : s_max; s_min = v < s_min ? v : s_min; s_land = s_land && v; s_lor = s_lor || v == (float)7;
            (void)f; (void)b;
        }
        out_f_vector[r * 6 + 0] = s_add;
        out_f_vector[r * 6 + 1] = s_mul;
        out_f_vector[r * 6 + 2] = s_max;
        out_f_vector[r * 6 + 3] = s_min;
        out_f_vector[r * 6 + 4] = s_land;
        out_f_vector[r * 6 + 5] = s_lor;
    }
    for (int r = 0; r < R; r++) { printf("float  vector        row %d:", r); for (int k = 0; k < 6; k++) printf(" %g", out_f_vector[r * 6 + k]); printf("\n"); }
    /* float, worker level */
#pragma acc parallel loop gang num_gangs(3) num_workers(4) vector_length(VL) copyin(fa, ib, ffac) copyout(out_f_worker)
    for (int r = 0; r < R; r++) {
        float s_add = 0, s_mul = 1, s_max = -1000000, s_min = 1000000, s_land = 1, s_lor = 0;
#pragma acc loop worker reduction(+:s_add) reduction(*:s_mul) reduction(max:s_max) reduction(min:s_min) reduction(&&:s_land) reduction(||:s_lor)
        for (int j = 0; j < C - 11 * r; j++) {
            float v = fa[(j + 7 * r) % C]; float f = ffac[(j + r) % C]; int b = ib[(j + r) % C];
            s_add += v; s_mul *= f; s_max = v > s_max ? v : s_max; s_min = v < s_min ? v : s_min; s_land = s_land && v; s_lor = s_lor || v == (float)7;
            (void)f; (void)b;
        }
        out_f_worker[r * 6 + 0] = s_add;
        out_f_worker[r * 6 + 1] = s_mul;
        out_f_worker[r * 6 + 2] = s_max;
        out_f_worker[r * 6 + 3] = s_min;
        out_f_worker[r * 6 + 4] = s_land;
        out_f_worker[r * 6 + 5] = s_lor;
    }
    for (int r = 0; r < R; r++) { printf("float  worker        row %d:", r); for (int k = 0; k < 6; k++) printf(" %g", out_f_worker[r * 6 + k]); printf("\n"); }
    /* float, worker vector level */
#pragma acc parallel loop gang num_gangs(3) num_workers(4) vector_length(VL) copyin(fa, ib, ffac) copyout(out_f_worker_vector)
    for (int r = 0; r < R; r++) {
        float s_add = 0, s_mul = 1, s_max = -1000000, s_min = 1000000, s_land = 1, s_lor = 0;
#pragma acc loop worker vector reduction(+:s_add) reduction(*:s_mul) reduction(max:s_max) reduction(min:s_min) reduction(&&:s_land) reduction(||:s_lor)
        for (int j = 0; j < C - 11 * r; j++) {
            float v = fa[(j + 7 * r) % C]; float f = ffac[(j + r) % C]; int b = ib[(j + r) % C];
            s_add += v; s_mul *= f; s_max = v > s_max ? v : s_max; s_min = v < s_min ? v : s_min; s_land = s_land && v; s_lor = s_lor || v == (float)7;
            (void)f; (void)b;
        }
        out_f_worker_vector[r * 6 + 0] = s_add;
        out_f_worker_vector[r * 6 + 1] = s_mul;
        out_f_worker_vector[r * 6 + 2] = s_max;
        out_f_worker_vector[r * 6 + 3] = s_min;
        out_f_worker_vector[r * 6 + 4] = s_land;
        out_f_worker_vector[r * 6 + 5] = s_lor;
    }
    for (int r = 0; r < R; r++) { printf("float  worker_vector row %d:", r); for (int k = 0; k < 6; k++) printf(" %g", out_f_worker_vector[r * 6 + k]); printf("\n"); }
    /* double, vector level */
#pragma acc parallel loop gang num_gangs(3) num_workers(4) vector_length(VL) copyin(da, ib, dfac) copyout(out_d_vector)
    for (int r = 0; r < R; r++) {
        double s_add = 0, s_mul = 1, s_max = -1000000, s_min = 1000000, s_land = 1, s_lor = 0;
#pragma acc loop vector reduction(+:s_add) reduction(*:s_mul) reduction(max:s_max) reduction(min:s_min) reduction(&&:s_land) reduction(||:s_lor)
        for (int j = 0; j < C - 11 * r; j++) {
            double v = da[(j + 7 * r) % C]; double f = dfac[(j + r) % C]; int b = ib[(j + r) % C];
            s_add += v; s_mul *= f; s_max = v > s_max ? v : s_max; s_min = v < s_min ? v : s_min; s_land = s_land && v; s_lor = s_lor || v == (double)7;
            (void)f; (void)b;
        }
        out_d_vector[r * 6 + 0] = s_add;
        out_d_vector[r * 6 + 1] = s_mul;
        out_d_vector[r * 6 + 2] = s_max;
        out_d_vector[r * 6 + 3] = s_min;
        out_d_vector[r * 6 + 4] = s_land;
        out_d_vector[r * 6 + 5] = s_lor;
    }
    for (int r = 0; r < R; r++) { printf("double vector        row %d:", r); for (int k = 0; k < 6; k++) printf(" %g", out_d_vector[r * 6 + k]); printf("\n"); }
    /* double, worker level */
#pragma acc parallel loop gang num_gangs(3) num_workers(4) vector_length(VL) copyin(da, ib, dfac) copyout(out_d_worker)
    for (int r = 0; r < R; r++) {
        double s_add = 0, s_mul = 1, s_max = -1000000, s_min = 1000000, s_land = 1, s_lor = 0;
#pragma acc loop worker reduction(+:s_add) reduction(*:s_mul) reduction(max:s_max) reduction(min:s_min) reduction(&&:s_land) reduction(||:s_lor)
        for (int j = 0; j < C - 11 * r; j++) {
            double v = da[(j + 7 * r) % C]; double f = dfac[(j + r) % C]; int b = ib[(j + r) % C];
            s_add += v; s_mul *= f; s_max = v > s_max ? v : s_max; s_min = v < s_min ? v : s_min; s_land = s_land && v; s_lor = s_lor || v == (double)7;
            (void)f; (void)b;
        }
        out_d_worker[r * 6 + 0] = s_add;
        out_d_worker[r * 6 + 1] = s_mul;
        out_d_worker[r * 6 + 2] = s_max;
        out_d_worker[r * 6 + 3] = s_min;
        out_d_worker[r * 6 + 4] = s_land;
        out_d_worker[r * 6 + 5] = s_lor;
    }
    for (int r = 0; r < R; r++) { printf("double worker        row %d:", r); for (int k = 0; k < 6; k++) printf(" %g", out_d_worker[r * 6 + k]); printf("\n"); }
    /* double, worker vector level */
#pragma acc parallel loop gang num_gangs(3) num_workers(4) vector_length(VL) copyin(da, ib, dfac) copyout(out_d_worker_vector)
    for (int r = 0; r < R; r++) {
        double s_add = 0, s_mul = 1, s_max = -1000000, s_min = 1000000, s_land = 1, s_lor = 0;
#pragma acc loop worker vector reduction(+:s_add) reduction(*:s_mul) reduction(max:s_max) reduction(min:s_min) reduction(&&:s_land) reduction(||:s_lor)
        for (int j = 0; j < C - 11 * r; j++) {
            double v = da[(j + 7 * r) % C]; double f = dfac[(j + r) % C]; int b = ib[(j + r) % C];
            s_add += v; s_mul *= f; s_max = v > s_max ? v : s_max; s_min = v < s_min ? v : s_min; s_land = s_land && v; s_lor = s_lor || v == (double)7;
            (void)f; (void)b;
        }
        out_d_worker_vector[r * 6 + 0] = s_add;
        out_d_worker_vector[r * 6 + 1] = s_mul;
        out_d_worker_vector[r * 6 + 2] = s_max;
        out_d_worker_vector[r * 6 + 3] = s_min;
        out_d_worker_vector[r * 6 + 4] = s_land;
        out_d_worker_vector[r * 6 + 5] = s_lor;
    }
    for (int r = 0; r < R; r++) { printf("double worker_vector row %d:", r); for (int k = 0; k < 6; k++) printf(" %g", out_d_worker_vector[r * 6 + k]); printf("\n"); }

    /* a vector reduction inside a worker loop: each worker reduces its own lanes */
#pragma acc parallel loop gang num_gangs(2) num_workers(4) vector_length(VLN) copyin(ia, da) copyout(nest_i, nest_d)
    for (int r = 0; r < R; r++) {
        int ti = 0; double td = -1.0e30;
#pragma acc loop worker reduction(+:ti) reduction(max:td)
        for (int k = 0; k < 10; k++) {
            int si = 0; double sd = -1.0e30;
#pragma acc loop vector reduction(+:si) reduction(max:sd)
            for (int j = 0; j < C; j++) {
                si += ia[(j + k + r) % C];
                sd = da[(j * k + r) % C] > sd ? da[(j * k + r) % C] : sd;
            }
            ti += si * (k + 1);
            td = sd + k > td ? sd + k : td;
        }
        nest_i[r] = ti; nest_d[r] = td;
    }
    for (int r = 0; r < R; r++) printf("nested row %d: %d %g\n", r, nest_i[r], nest_d[r]);

    /* gang level: the construct's variables, a gang worker vector loop */
    int g_add = 5, g_mul = 1, g_max = -1000000, g_min = 1000000, g_and = ~0, g_or = 0, g_xor = 0, g_land = 1, g_lor = 0;
#pragma acc parallel num_gangs(5) num_workers(2) vector_length(32) copyin(ia, ib, ifac) \
    reduction(+:g_add) reduction(*:g_mul) reduction(max:g_max) reduction(min:g_min) reduction(&:g_and) reduction(|:g_or) reduction(^:g_xor) reduction(&&:g_land) reduction(||:g_lor)
    {
#pragma acc loop gang worker vector reduction(+:g_add) reduction(*:g_mul) reduction(max:g_max) reduction(min:g_min) reduction(&:g_and) reduction(|:g_or) reduction(^:g_xor) reduction(&&:g_land) reduction(||:g_lor)
        for (int j = 0; j < C; j++) {
            g_add += ia[j]; g_mul *= ifac[j]; g_max = ia[j] > g_max ? ia[j] : g_max; g_min = ia[j] < g_min ? ia[j] : g_min;
            g_and &= ib[j]; g_or |= ib[j] >> 8; g_xor ^= ib[j]; g_land = g_land && ia[j] != 1000; g_lor = g_lor || ia[j] == 3;
        }
    }
    printf("gang int: %d %d %d %d %d %d %d %d %d\n", g_add, g_mul, g_max, g_min, g_and, g_or, g_xor, g_land, g_lor);

    double h_add = 0.5, h_mul = 1.0, h_max = -1.0e30, h_min = 1.0e30, h_land = 1.0, h_lor = 0.0;
#pragma acc parallel loop gang vector num_gangs(4) vector_length(128) copyin(da, dfac) \
    reduction(+:h_add) reduction(*:h_mul) reduction(max:h_max) reduction(min:h_min) reduction(&&:h_land) reduction(||:h_lor)
    for (int j = 0; j < C; j++) {
        h_add += da[j]; h_mul *= dfac[j]; h_max = da[j] > h_max ? da[j] : h_max; h_min = da[j] < h_min ? da[j] : h_min;
        h_land = h_land && da[j] != 100.0; h_lor = h_lor || da[j] == 0.125;
    }
    printf("gang double: %g %g %g %g %g %g\n", h_add, h_mul, h_max, h_min, h_land, h_lor);

    /* complex +: vector level */
    double _Complex z = 1.0;
#pragma acc parallel loop gang vector num_gangs(2) vector_length(64) copyin(da) reduction(+:z)
    for (int j = 0; j < C; j++)
        z += da[j] + da[(j + 1) % C] * I;
    printf("complex: %g %g\n", creal(z), cimag(z));
    return 0;
}
