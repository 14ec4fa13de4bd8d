// Issue 12 (real-code samples): kernels in functions taking array parameters, the caller mapping
// its arrays once with data clauses on the bare array names (§2.6.3, §2.6.5), the functions
// naming the parameters with bare names in present clauses (§2.6.5.7: present because of "data
// constructs within procedures that call the procedure containing this construct").
#include <stdio.h>

#define N 256

static void smooth(int n, const float in[], float out[]) {
#pragma acc parallel loop present(in, out)
    for (int i = 1; i < n - 1; i++) out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

static void copy_interior(int n, const float from[], float to[]) {
#pragma acc parallel loop present(from, to)
    for (int i = 1; i < n - 1; i++) to[i] = from[i];
}

static float total(int n, const float v[]) {
    float s = 0.0f;
#pragma acc parallel loop present(v) reduction(+:s)
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

int main(void) {
    static float u[N], tmp[N];
    for (int i = 0; i < N; i++) u[i] = (i == N / 2) ? 1024.0f : 0.0f;
    for (int i = 0; i < N; i++) tmp[i] = u[i];
    float mass = 0.0f;
#pragma acc data copy(u) copyin(tmp)
    {
        for (int step = 0; step < 10; step++) {
            smooth(N, u, tmp);
            copy_interior(N, tmp, u);
        }
        mass = total(N, u);
    }
    printf("mass = %.3f\n", mass);
    printf("u[%d] = %.3f, u[%d] = %.3f, u[%d] = %.3f\n", N / 2, u[N / 2], N / 2 + 5, u[N / 2 + 5], N / 2 + 10, u[N / 2 + 10]);
    return 0;
}
