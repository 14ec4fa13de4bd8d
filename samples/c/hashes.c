// Exercises: unsigned overflow used on purpose: FNV-1a (32 and 64 bit),
// djb2, xorshift32/xorshift64* PRNGs, a table-driven CRC32, and an LCG;
// all rely on modulo-2^N wrap-around of unsigned arithmetic.
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>

static uint32_t fnv1a32(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 16777619u; }
    return h;
}
static uint64_t fnv1a64(const void *data, size_t n) {
    const unsigned char *p = data;
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 1099511628211ULL; }
    return h;
}
static unsigned long djb2(const char *s) {
    unsigned long h = 5381;
    int c;
    while ((c = (unsigned char)*s++)) h = ((h << 5) + h) + c;
    return h;
}
static uint32_t xs32_state = 2463534242u;
static uint32_t xorshift32(void) {
    uint32_t x = xs32_state;
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    return xs32_state = x;
}
static uint64_t xs64_state = 88172645463325252ULL;
static uint64_t xorshift64star(void) {
    uint64_t x = xs64_state;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    xs64_state = x;
    return x * 0x2545F4914F6CDD1DULL;
}
static uint32_t crc_table[256];
static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}
static uint32_t crc32(const void *data, size_t n) {
    const unsigned char *p = data;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

int main(void) {
    const char *words[] = {"", "a", "foobar", "hello world", "The quick brown fox jumps over the lazy dog"};
    crc_init();
    printf("crc_table[1]=%08" PRIx32 " crc_table[255]=%08" PRIx32 "\n", crc_table[1], crc_table[255]);
    for (int i = 0; i < 5; i++) {
        const char *w = words[i];
        printf("'%s': fnv32=%08" PRIx32 " fnv64=%016" PRIx64 " djb2=%lu crc32=%08" PRIx32 "\n", w, fnv1a32(w),
               fnv1a64(w, strlen(w)), djb2(w), crc32(w, strlen(w)));
    }
    printf("crc32(\"123456789\") = %08" PRIx32 "\n", crc32("123456789", 9));
    printf("xorshift32:");
    for (int i = 0; i < 5; i++) printf(" %" PRIu32, xorshift32());
    printf("\nxorshift64*:");
    for (int i = 0; i < 5; i++) printf(" %" PRIu64, xorshift64star());
    printf("\n");
    uint32_t acc = 0;
    for (int i = 0; i < 100000; i++) acc += xorshift32() >> 16;
    printf("sum of 100000 high halves mod 2^32 = %" PRIu32 "\n", acc);
    uint32_t lcg = 1;
    for (int i = 0; i < 1000; i++) lcg = lcg * 1664525u + 1013904223u;
    printf("lcg after 1000 = %" PRIu32 "\n", lcg);
    unsigned char block[1024];
    for (int i = 0; i < 1024; i++) block[i] = (unsigned char)(i * 31 + 7);
    printf("crc32(block)=%08" PRIx32 " fnv64(block)=%016" PRIx64 "\n", crc32(block, sizeof block),
           fnv1a64(block, sizeof block));
    return 0;
}
