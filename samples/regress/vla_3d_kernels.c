// Issue 12 (variable-length arrays): a 3-D variable-length array `float f[nz][ny][nx]` in a
// kernels region and a 7-point stencil over its interior: a subarray of all three dimensions in
// one clause (`copyin(f[0:nz][0:ny][0:nx])`, §2.6.5), the result named whole (`copyout(g)`), and
// a `collapse(3)` loop (§2.7.1) whose body indexes planes and rows of run-time sizes.
#include <stdio.h>

static void stencil(int nz, int ny, int nx) {
    float f[nz][ny][nx], g[nz][ny][nx];
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) f[k][j][i] = (float)((k * 7 + j * 3 + i) % 11), g[k][j][i] = 0.0f;
#pragma acc kernels copyin(f[0:nz][0:ny][0:nx]) copyout(g)
    {
#pragma acc loop independent collapse(3)
        for (int k = 1; k < nz - 1; k++)
            for (int j = 1; j < ny - 1; j++)
                for (int i = 1; i < nx - 1; i++)
                    g[k][j][i] = (f[k - 1][j][i] + f[k + 1][j][i] + f[k][j - 1][i] + f[k][j + 1][i] + f[k][j][i - 1] + f[k][j][i + 1]) / 6.0f - f[k][j][i];
    }
    double sum = 0.0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) sum += g[k][j][i];
    printf("%dx%dx%d: g[1][1][1]=%.2f g[%d][%d][%d]=%.2f sum=%.2f\n", nz, ny, nx, g[1][1][1], nz - 2, ny - 2, nx - 2, g[nz - 2][ny - 2][nx - 2], sum);
}

int main(void) {
    stencil(4, 5, 6);
    stencil(6, 3, 9);
    return 0;
}
