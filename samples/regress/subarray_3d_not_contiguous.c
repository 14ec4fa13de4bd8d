// Issue 12, compile-time errors: "Any array or subarray in a data clause ... must be a contiguous
// block of memory" (OpenACC 2.0 §2.6.5). Of the global `float field[4][8][8]`, `field[1:2]`,
// `field[1:2][0:8][0:8]` and `field[3][2:4][0:8]` (rows 2-5 of the last plane) are one block each and are accepted, while
// `field[0:4][0:8][0:4]` (half of every row) is not. Both sites are on the clause.
// expect-exit: 2
// expect-stderr: error[directive]: `field[0:4][0:8][0:4]` is not a contiguous block of memory
// expect-stderr: subarray_3d_not_contiguous.c:29:32
#include <stdio.h>

float field[4][8][8];

static void smooth(void)
{
#pragma acc enter data copyin(field[3][2:4][0:8])
#pragma acc data copy(field[1:2])
    {
#pragma acc parallel loop collapse(2) present(field[1:2][0:8][0:8])
        for (int j = 0; j < 8; j++)
            for (int k = 0; k < 8; k++)
                field[1][j][k] = 0.5f * (field[1][j][k] + field[2][j][k]);
    }
#pragma acc exit data delete(field[3][2:4][0:8])
}

int main(void)
{
    smooth();
    /* Only the left half of each row: 32 separate pieces of 4 floats. */
#pragma acc parallel loop copy(field[0:4][0:8][0:4]) /* expect: compile-error */
    for (int i = 0; i < 4; i++)
        field[i][0][0] += 1.0f;
    printf("%.1f\n", field[0][0][0]);
    return 0;
}
