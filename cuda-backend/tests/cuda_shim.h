// Declarations of the CUDA built-ins that emitted code uses, so that a host C++ compiler can
// syntax-check the snapshots where nvcc is absent (tests/emit.rs, `snapshots_parse_as_cpp`).
// This checks syntax and types only; nvcc on a GPU machine is the real check (GPU_RESULTS.md).
#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#define __global__
#define __device__
#define __shared__ static
#define __forceinline__ inline
#define __align__(n) alignas(n)
struct dim3_ { unsigned x, y, z; }; extern dim3_ threadIdx, blockIdx, blockDim, gridDim;
int atomicAdd(int*, int); unsigned atomicAdd(unsigned*, unsigned); float atomicAdd(float*, float); double atomicAdd(double*, double); unsigned long long atomicAdd(unsigned long long*, unsigned long long);
int atomicAnd(int*, int); unsigned atomicAnd(unsigned*, unsigned); unsigned long long atomicAnd(unsigned long long*, unsigned long long);
int atomicOr(int*, int); unsigned atomicOr(unsigned*, unsigned); unsigned long long atomicOr(unsigned long long*, unsigned long long);
int atomicXor(int*, int); unsigned atomicXor(unsigned*, unsigned); unsigned long long atomicXor(unsigned long long*, unsigned long long);
int atomicCAS(int*, int, int); unsigned atomicCAS(unsigned*, unsigned, unsigned); unsigned long long atomicCAS(unsigned long long*, unsigned long long, unsigned long long);
int __float_as_int(float); float __int_as_float(int); long long __double_as_longlong(double); double __longlong_as_double(long long);
void __syncthreads(); void __syncwarp(unsigned); void __threadfence(); void __trap();
int atomicExch(int*, int);
int __shfl_down_sync(unsigned, int, unsigned); unsigned __shfl_down_sync(unsigned, unsigned, unsigned); long __shfl_down_sync(unsigned, long, unsigned); unsigned long __shfl_down_sync(unsigned, unsigned long, unsigned); float __shfl_down_sync(unsigned, float, unsigned); double __shfl_down_sync(unsigned, double, unsigned);
