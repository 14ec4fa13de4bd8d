// Device-to-device copy bandwidth (cudaMemcpy D2D), the reference for the GPU benchmarks.
#include <cstdio>
int main() {
    size_t bytes = 1ull << 30;
    void *a, *b;
    cudaMalloc(&a, bytes); cudaMalloc(&b, bytes);
    cudaMemset(a, 1, bytes); cudaMemset(b, 0, bytes);
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
    int reps = 20;
    cudaEventRecord(s);
    for (int i = 0; i < reps; i++) cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e); cudaEventSynchronize(e);
    float ms; cudaEventElapsedTime(&ms, s, e);
    printf("d2d copy: %zu bytes x %d: %.3f ms per copy, %.1f GB/s (read + write)\n", bytes, reps, ms / reps, 2.0 * bytes * reps / (ms * 1e-3) / 1e9);
    return 0;
}
