/* 11_kernel_clause.c — the `kernel` clause (PGI Accelerator 1.3 §2.4.3).
 *
 * Teaches: `#pragma acc for kernel` makes the body of its loop the body of the computational
 * kernel: the iterations of that loop run in parallel, and "any loops contained within the kernel
 * loop will be executed sequentially on the accelerator". Here each row of a small system is
 * smoothed by three sweeps whose inner loops run one after the other inside the row's iteration.
 * The loops inside a kernel loop carry no loop mapping directive: 1.3 makes that an error
 * ("Loop mapping directives must not appear on any loop contained within the kernel loop"), and
 * accsim reports it (samples/regress/pgi13_kernel_loop_inner_directive.c). In OpenACC 2.0 the
 * kernel loop is a `loop` whose inner loops run sequentially (`loop seq`).
 */
#include <stdio.h>

#define ROWS 128
#define COLS 16

int main(void) {
    static double m[ROWS][COLS], total[ROWS];
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            m[i][j] = (double)((i * 13 + j * 5) % 17);

#pragma acc region copy(m) copyout(total)
    {
#pragma acc for kernel
        for (int i = 0; i < ROWS; i++) {
            for (int sweep = 0; sweep < 3; sweep++)
                for (int j = 1; j < COLS - 1; j++)
                    m[i][j] = (m[i][j - 1] + m[i][j] + m[i][j + 1]) / 3.0;
            double s = 0;
            for (int j = 0; j < COLS; j++)
                s += m[i][j];
            total[i] = s;
        }
    }

    double sum = 0;
    for (int i = 0; i < ROWS; i++)
        sum += total[i];
    printf("total[0] = %.6f, total[%d] = %.6f, sum = %.6f\n", total[0], ROWS - 1, total[ROWS - 1], sum);
    return 0;
}
