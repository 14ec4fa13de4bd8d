// Native engine: a `loop vector` or `loop worker` reduction inside a gang loop combines its
// partial result into the gang's private variable with an `atomic` update the kernels
// outliner adds. That variable is a memory local kept in a register (only its own invocation
// can reach it), so the combination runs as the plain statement, without the run's atomic
// lock: the lock's calls overwrote every float register, which kept the loop's accumulator in
// a stack slot in every iteration (matrix products with `loop vector reduction(+:s)` ran at
// half speed). A reduction into a variable shared by the gangs still combines atomically.
// Every line must be what gcc prints.
#include <stdio.h>

#define N 61

static double a[N * N], b[N * N], c[N * N];
static float fa[N * N];
static int ia[N * N];

int main(void)
{
    for (int i = 0; i < N * N; i++) {
        a[i] = (double)((i * 7) % 13 - 6);
        b[i] = (double)((i * 5) % 11 - 5) * 0.5;
        fa[i] = (float)((i * 3) % 17) * 0.25f;
        ia[i] = (i * 11) % 29 - 14;
    }
    double total = 0.0;
    long itotal = 0;
#pragma acc data copyin(a, b, fa, ia) copyout(c)
    {
        /* The matrix product's inner sum: + of doubles, the partial used after the loop. */
#pragma acc parallel loop gang
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) {
                double s = 0.0;
#pragma acc loop vector reduction(+:s)
                for (int k = 0; k < N; k++)
                    s += a[i * N + k] * b[k * N + j];
                c[i * N + j] = s;
            }
        /* max of floats, * of doubles and ints with every operator, over a worker loop. */
#pragma acc parallel loop gang reduction(+:total, itotal)
        for (int j = 0; j < N; j++) {
            float m = -1.0f;
            double p = 1.0;
            int lo = 1000, x = 0, o = 0, an = -1;
#pragma acc loop worker reduction(max:m) reduction(*:p) reduction(min:lo) reduction(^:x) reduction(|:o) reduction(&:an)
            for (int k = 0; k < N; k++) {
                m = fa[k * N + j] > m ? fa[k * N + j] : m;
                p *= a[k * N + j] > 0.0 ? 2.0 : 0.5;
                lo = ia[j * N + k] < lo ? ia[j * N + k] : lo;
                x ^= ia[k * N + j];
                o |= ia[k * N + j] & 0x55;
                an &= ia[k * N + j] | 0x100;
            }
            total += m + p;
            itotal += lo + x + o + an;
        }
    }
    double sum = 0.0;
    for (int i = 0; i < N * N; i++)
        sum += c[i] * (double)(i % 7 + 1);
    printf("product %.6f %.6f %.6f\n", sum, c[0], c[N * N - 1]);
    printf("reductions %.9f %ld\n", total, itotal);
    return 0;
}
