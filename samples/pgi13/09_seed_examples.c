/* 09_seed_examples.c — the C examples of the PGI Accelerator 1.3 document, in one program.
 *
 * Each form the document shows in C (seeds/004, "PGI Accelerator Programming Model for Fortran
 * & C" v1.3), with the section it comes from:
 * - §2.1 the directive format, clauses separated by commas or blanks;
 * - §2.3.1 `#pragma acc region` and §2.3.2 `#pragma acc data region` around structured blocks;
 * - §2.3.3 the subarray `arr[2:high][low:100]` (bounds included: rows 2..high, columns low..100);
 * - §2.4 `#pragma acc for` and §2.5 `#pragma acc region for` before a for loop;
 * - §2.6 a declarative directive after an array's declaration, and the prototype form
 *   `#pragma acc function(name) declclause`;
 * - §2.7.1 `#pragma acc update`, §2.7.2 `#pragma acc device present(list)`, §2.7.3
 *   `#pragma acc wait(handle)`;
 * - §5 the triangular loop the document's compiler cannot offload ("loop nests to be offloaded
 *   must be rectangular"); accsim, like OpenACC 2.0, runs it.
 */
#include <stdio.h>

#define ROWS 12
#define COLS 101

float arr[ROWS][COLS];

static void scale_rows(float m[ROWS][COLS], int high, int low);
#pragma acc function(scale_rows) reflected(m)

static void scale_rows(float m[ROWS][COLS], int high, int low) {
#pragma acc reflected(m)
#pragma acc region
    {
#pragma acc for parallel
        for (int i = 2; i <= high; i++)
#pragma acc for vector(32)
            for (int j = low; j <= 100; j++)
                m[i][j] = m[i][j] * 2 + 1;
    }
}

static float lower_sum(int n) {
    float t[ROWS][ROWS];
#pragma acc local(t)
    float s = 0;
#pragma acc region copy(s)
    {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                t[j][i] = 0;
        /* §5: a triangular loop nest. */
#pragma acc for seq
        for (int j = 0; j < n; j++)
            for (int i = 0; i < j; i++)
                t[j][i] = (float)(i + j);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                s += t[j][i];
    }
    return s;
}

static float checksum(void) {
#pragma acc device present(arr)
    float s = 0;
#pragma acc region for, copy(s)
    for (int i = 0; i < ROWS; i++)
        s += arr[i][0] + arr[i][COLS - 1];
    return s;
}

int main(void) {
    int high = 9, low = 0, h = 0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) arr[i][j] = (float)(i - j % 3);

    /* §2.3.3: only rows 2..high, columns low..100, move. */
#pragma acc region copy(arr[2:high][low:100])
    {
        for (int i = 2; i <= high; i++)
            for (int j = low; j <= 100; j++)
                arr[i][j] += 0.5f;
    }
#pragma acc data region copy(arr)
    {
        scale_rows(arr, high, low);
#pragma acc update host(arr[2:2][low:100]), async(h)
#pragma acc wait(h)
        printf("row 2 on the host after the update: %g %g %g\n", arr[2][0], arr[2][1], arr[2][100]);
        printf("checksum of the device copy: %g\n", checksum());
    }
    printf("arr[1][0] = %g (outside the subarray), arr[9][100] = %g, arr[10][5] = %g\n", arr[1][0], arr[9][100], arr[10][5]);
    printf("lower triangle sum: %g\n", lower_sum(ROWS));
    return 0;
}
