//! The prelude of the emitted CUDA C: helper types and functions that kernels use, each a named
//! piece that [`crate::emit`] inserts when a kernel needs it (complex values, `long double`,
//! compare-and-swap loops, block reductions, worker barriers, per-thread variable-length arrays,
//! device addresses that host code took). Pieces come out in name order, so a piece may use
//! the pieces whose names sort before it.

/// The text of prelude piece `piece` (empty for an unknown name).
pub(crate) fn prelude_text(piece: &str) -> &'static str {
    match piece {
        "complex" => "\
// Complex values (C's float/double _Complex): real part, then imaginary part.
struct accsim_cfloat { float re, im; };
struct accsim_cdouble { double re, im; };
template <typename C> __device__ C *accsim_cmake(C *d, double re, double im) { d->re = re; d->im = im; return d; }
template <typename C> __device__ C *accsim_cadd(C *d, const C *a, const C *b) { C r = {a->re + b->re, a->im + b->im}; *d = r; return d; }
template <typename C> __device__ C *accsim_csub(C *d, const C *a, const C *b) { C r = {a->re - b->re, a->im - b->im}; *d = r; return d; }
template <typename C> __device__ C *accsim_cmul(C *d, const C *a, const C *b) { C r = {a->re * b->re - a->im * b->im, a->re * b->im + a->im * b->re}; *d = r; return d; }
template <typename C> __device__ C *accsim_cdiv(C *d, const C *a, const C *b) {
    double den = (double)b->re * b->re + (double)b->im * b->im;
    C r = {(a->re * b->re + a->im * b->im) / den, (a->im * b->re - a->re * b->im) / den}; *d = r; return d;
}
template <typename C> __device__ C *accsim_cneg(C *d, const C *a) { C r = {-a->re, -a->im}; *d = r; return d; }
template <typename C> __device__ int accsim_ceq(const C *a, const C *b) { return a->re == b->re && a->im == b->im; }
",
        "complex_lib" => "\
// <complex.h> on the device (C11 7.3.9: parts, conjugate; cabs is glibc's hypot of the parts).
__device__ float crealf(accsim_cfloat z) { return z.re; }
__device__ float cimagf(accsim_cfloat z) { return z.im; }
__device__ double creal(accsim_cdouble z) { return z.re; }
__device__ double cimag(accsim_cdouble z) { return z.im; }
__device__ accsim_cfloat conjf(accsim_cfloat z) { z.im = -z.im; return z; }
__device__ accsim_cdouble conj(accsim_cdouble z) { z.im = -z.im; return z; }
__device__ float cabsf(accsim_cfloat z) { return hypotf(z.re, z.im); }
__device__ double cabs(accsim_cdouble z) { return hypot(z.re, z.im); }
",
        "cas" => "\
// Compare-and-swap on the bits of a 4- or 8-byte scalar (reduction combines other than +).
__device__ int accsim_cas(int *p, int cmp, int val) { return atomicCAS(p, cmp, val); }
__device__ unsigned accsim_cas(unsigned *p, unsigned cmp, unsigned val) { return atomicCAS(p, cmp, val); }
__device__ long accsim_cas(long *p, long cmp, long val) { return (long)atomicCAS((unsigned long long *)p, (unsigned long long)cmp, (unsigned long long)val); }
__device__ unsigned long accsim_cas(unsigned long *p, unsigned long cmp, unsigned long val) { return (unsigned long)atomicCAS((unsigned long long *)p, (unsigned long long)cmp, (unsigned long long)val); }
__device__ float accsim_cas(float *p, float cmp, float val) { return __int_as_float(atomicCAS((int *)p, __float_as_int(cmp), __float_as_int(val))); }
__device__ double accsim_cas(double *p, double cmp, double val) { return __longlong_as_double((long long)atomicCAS((unsigned long long *)p, (unsigned long long)__double_as_longlong(cmp), (unsigned long long)__double_as_longlong(val))); }
__device__ bool accsim_same_bits(int a, int b) { return a == b; }
__device__ bool accsim_same_bits(unsigned a, unsigned b) { return a == b; }
__device__ bool accsim_same_bits(long a, long b) { return a == b; }
__device__ bool accsim_same_bits(unsigned long a, unsigned long b) { return a == b; }
__device__ bool accsim_same_bits(float a, float b) { return __float_as_int(a) == __float_as_int(b); }
__device__ bool accsim_same_bits(double a, double b) { return __double_as_longlong(a) == __double_as_longlong(b); }
",
        "cas_small" => "\
// Compare-and-swap of a 1- or 2-byte object (char, short, _Bool) through the aligned 4-byte word
// that holds it: succeeds when the object holds `cmp`, whatever its neighbours do meanwhile.
template <typename T> __device__ unsigned accsim_small_bits(T v) { return sizeof(T) == 1 ? (unsigned)(unsigned char)v : (unsigned)(unsigned short)v; }
template <typename T> __device__ T accsim_cas(T *p, T cmp, T val) {
    unsigned *w = (unsigned *)((unsigned long)p & ~3ul);
    unsigned shift = (unsigned)((unsigned long)p & 3ul) * 8u;
    unsigned mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned old = *(volatile unsigned *)w, assumed;
    do {
        assumed = old;
        unsigned bits = (assumed & mask) >> shift;
        if (bits != accsim_small_bits(cmp)) return (T)bits;
        old = atomicCAS(w, assumed, (assumed & ~mask) | ((accsim_small_bits(val) << shift) & mask));
    } while (old != assumed);
    return cmp;
}
template <typename T> __device__ bool accsim_same_bits(T a, T b) { return accsim_small_bits(a) == accsim_small_bits(b); }
",
        "reduce" => "\
// Block reduction (§2.7.11): the `n` threads of a group (rank `r`, scratch slots `stride` apart)
// each bring a value `v` and all get the combination by `op`. A group of whole warps first
// combines within each warp by shuffles; then a tree in the scratch array, with the group's
// barrier `sync` between steps and at the end (so the scratch can be used again).
__device__ int accsim_shfl_down(int v, unsigned o) { return __shfl_down_sync(0xffffffffu, v, o); }
__device__ unsigned accsim_shfl_down(unsigned v, unsigned o) { return __shfl_down_sync(0xffffffffu, v, o); }
__device__ long accsim_shfl_down(long v, unsigned o) { return __shfl_down_sync(0xffffffffu, v, o); }
__device__ unsigned long accsim_shfl_down(unsigned long v, unsigned o) { return __shfl_down_sync(0xffffffffu, v, o); }
__device__ float accsim_shfl_down(float v, unsigned o) { return __shfl_down_sync(0xffffffffu, v, o); }
__device__ double accsim_shfl_down(double v, unsigned o) { return __shfl_down_sync(0xffffffffu, v, o); }
template <typename T> __device__ T accsim_shfl(T v, unsigned o) { return (T)accsim_shfl_down(v, o); }
template <typename T, typename Op, typename Sync>
__device__ T accsim_reduce(T v, T *s, unsigned r, unsigned n, unsigned stride, Op op, Sync sync) {
    unsigned base = threadIdx.y * blockDim.x + threadIdx.x - r * stride, m = n;
    if (stride == 1 && n % 32 == 0) {
        for (unsigned o = 16; o > 0; o /= 2) v = op(v, accsim_shfl(v, o));
        if (r % 32 == 0) s[base + r / 32] = v;
        m = n / 32;
        stride = 1;
    } else {
        s[base + r * stride] = v;
    }
    sync();
    while (m > 1) {
        unsigned half = (m + 1) / 2;
        if (r + half < m) s[base + r * stride] = op(s[base + r * stride], s[base + (r + half) * stride]);
        sync();
        m = half;
    }
    v = s[base];
    sync();
    return v;
}
",
        "reduce_complex" => "\
// Shuffles of complex values (block reductions of complex `+`): part by part.
__device__ accsim_cfloat accsim_shfl(accsim_cfloat v, unsigned o) { accsim_cfloat r = {accsim_shfl_down(v.re, o), accsim_shfl_down(v.im, o)}; return r; }
__device__ accsim_cdouble accsim_shfl(accsim_cdouble v, unsigned o) { accsim_cdouble r = {accsim_shfl_down(v.re, o), accsim_shfl_down(v.im, o)}; return r; }
",
        "reduce_complex_mul" => "\
// Complex `*` combines (§2.5.11), as core's gang model computes them: in double precision,
// rounded to the part type. The atomic form is a compare-and-swap loop on the 8 bytes of an
// aligned float _Complex; a double _Complex (16 bytes, wider than a compare-and-swap) or an
// unaligned one is read, multiplied and written under a lock of the module.
__device__ accsim_cfloat accsim_cmul_combine(accsim_cfloat a, accsim_cfloat b) {
    accsim_cfloat r = {(float)((double)a.re * b.re - (double)a.im * b.im), (float)((double)a.re * b.im + (double)a.im * b.re)}; return r;
}
__device__ accsim_cdouble accsim_cmul_combine(accsim_cdouble a, accsim_cdouble b) {
    accsim_cdouble r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; return r;
}
__device__ int accsim_cmul_lock;
template <typename C> __device__ void accsim_cmul_locked(C *p, C v) {
    while (atomicCAS(&accsim_cmul_lock, 0, 1) != 0) { }
    __threadfence();
    volatile C *q = p;
    C a; a.re = q->re; a.im = q->im;
    C n = accsim_cmul_combine(a, v);
    q->re = n.re; q->im = n.im;
    __threadfence();
    atomicExch(&accsim_cmul_lock, 0);
}
__device__ void accsim_cmul_atomic(accsim_cdouble *p, accsim_cdouble v) { accsim_cmul_locked(p, v); }
__device__ void accsim_cmul_atomic(accsim_cfloat *p, accsim_cfloat v) {
    if ((unsigned long)p % 8 != 0) { accsim_cmul_locked(p, v); return; }
    union bits { accsim_cfloat c; unsigned long long w; };
    unsigned long long *w = (unsigned long long *)p, old = *(volatile unsigned long long *)w, assumed;
    do {
        assumed = old;
        bits a, n;
        a.w = assumed;
        n.c = accsim_cmul_combine(a.c, v);
        old = atomicCAS(w, assumed, n.w);
    } while (old != assumed);
}
",
        "device_address" => "\
// A pointer that device code makes of an integer may be a device address that host code took
// (`acc_deviceptr`, `host_data use_device`) and stored in copied data. accsim names device memory
// by block and offset (its pointer word: the block's number in the high 32 bits); before each
// launch the device writes the table of its live blocks (sorted by number) here, and such a word
// becomes the block's GPU address. Any other value is kept.
struct accsim_block { unsigned long long id, base, len; };
__device__ const accsim_block *accsim_blocks;
__device__ unsigned long long accsim_block_count;
__device__ void *accsim_device_address(unsigned long long w) {
    unsigned long long id = w >> 32, off = w & 0xffffffffull, lo = 0, hi = accsim_block_count;
    while (lo < hi) { unsigned long long mid = (lo + hi) / 2; if (accsim_blocks[mid].id < id) lo = mid + 1; else hi = mid; }
    if (lo < accsim_block_count && accsim_blocks[lo].id == id && off <= accsim_blocks[lo].len) return (void *)(accsim_blocks[lo].base + off);
    return (void *)w;
}
",
        "ldouble" => "\
// `long double` (16 bytes on x86-64): computed as a double, as accsim computes it everywhere and
// as nvc does on the device, and stored as accsim's memory holds it (the double's 8 bytes, then
// 8 zero bytes), so that data copied from the host reads the same.
struct __align__(16) accsim_ldouble {
    double v;
    unsigned long long pad;
    accsim_ldouble() = default;
    __device__ accsim_ldouble(double d) : v(d), pad(0) {}
    __device__ operator double() const { return v; }
    __device__ accsim_ldouble &operator+=(double d) { v += d; return *this; }
    __device__ accsim_ldouble &operator-=(double d) { v -= d; return *this; }
    __device__ accsim_ldouble &operator*=(double d) { v *= d; return *this; }
    __device__ accsim_ldouble &operator/=(double d) { v /= d; return *this; }
    __device__ accsim_ldouble &operator++() { v += 1.0; return *this; }
    __device__ accsim_ldouble &operator--() { v -= 1.0; return *this; }
    __device__ double operator++(int) { double o = v; v += 1.0; return o; }
    __device__ double operator--(int) { double o = v; v -= 1.0; return o; }
};
struct accsim_cldouble { accsim_ldouble re, im; };
",
        "reduce_complex_ld" => "\
__device__ accsim_cldouble accsim_shfl(accsim_cldouble v, unsigned o) { accsim_cldouble r = {accsim_shfl_down((double)v.re, o), accsim_shfl_down((double)v.im, o)}; return r; }
",
        "reduce_complex_mul_ld" => "\
__device__ accsim_cldouble accsim_cmul_combine(accsim_cldouble a, accsim_cldouble b) {
    double p = a.re, q = a.im, r = b.re, s = b.im;
    accsim_cldouble n = {p * r - q * s, p * s + q * r}; return n;
}
__device__ void accsim_cmul_atomic(accsim_cldouble *p, accsim_cldouble v) {
    while (atomicCAS(&accsim_cmul_lock, 0, 1) != 0) { }
    __threadfence();
    volatile double *q = (volatile double *)p;
    accsim_cldouble a = {q[0], q[2]};
    accsim_cldouble n = accsim_cmul_combine(a, v);
    q[0] = n.re; q[2] = n.im;
    __threadfence();
    atomicExch(&accsim_cmul_lock, 0);
}
",
        "vla" => "\
// A variable-length array of one thread in device code: storage from the device heap, freed
// when a new one is allocated and when the function returns. A failed allocation stops the
// kernel with a message (the context's heap is enlarged for such modules).
struct accsim_vla {
    unsigned char *p = nullptr;
    __device__ void alloc(unsigned long bytes, int line) {
        if (p) free(p);
        p = (unsigned char *)malloc(bytes ? bytes : 1);
        if (!p) { printf(\"accsim: no device heap left for a variable-length array of %lu bytes (line %d)\\n\", bytes, line); __trap(); }
    }
    __device__ ~accsim_vla() { if (p) free(p); }
};
",
        "sync_worker" => "\
// Barrier among the vector lanes of one worker (the threads of one threadIdx.y): a warp-level
// barrier when a worker's lanes share a warp, else a named barrier (id 1 + worker; blockDim.x a
// multiple of 32, at most 15 workers).
__device__ __forceinline__ void accsim_sync_worker() {
    if (blockDim.x <= 32 && 32 % blockDim.x == 0) {
        unsigned lanes = blockDim.x == 32 ? 0xffffffffu : ((1u << blockDim.x) - 1u) << ((threadIdx.y * blockDim.x) % 32);
        __syncwarp(lanes);
    } else {
        asm volatile(\"bar.sync %0, %1;\" :: \"r\"(1 + threadIdx.y), \"r\"(blockDim.x) : \"memory\");
    }
}
",
        _ => "",
    }
}
