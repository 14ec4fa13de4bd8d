// Exercises: bit manipulation: popcount (loop, Kernighan, builtin), count
// leading/trailing zeros, power-of-two tests, bit reversal, rotations,
// extracting/setting fields, Gray code, parity, and masks built by shifts.
#include <stdio.h>
#include <stdint.h>

static int popcount_loop(uint32_t x) { int c = 0; while (x) { c += x & 1; x >>= 1; } return c; }
static int popcount_kernighan(uint64_t x) { int c = 0; while (x) { x &= x - 1; c++; } return c; }
static uint32_t reverse_bits(uint32_t x) {
    uint32_t r = 0;
    for (int i = 0; i < 32; i++) { r = (r << 1) | (x & 1); x >>= 1; }
    return r;
}
static uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> ((32 - k) & 31)); }
static uint32_t rotr(uint32_t x, int k) { return (x >> k) | (x << ((32 - k) & 31)); }
static uint32_t next_pow2(uint32_t x) {
    x--;
    x |= x >> 1; x |= x >> 2; x |= x >> 4; x |= x >> 8; x |= x >> 16;
    return x + 1;
}

int main(void) {
    uint32_t tests[] = {0, 1, 2, 3, 255, 256, 0x80000000u, 0xFFFFFFFFu, 0xDEADBEEFu, 12345678};
    for (int i = 0; i < 10; i++) {
        uint32_t x = tests[i];
        printf("%08x pop=%d/%d/%d", x, popcount_loop(x), popcount_kernighan(x), __builtin_popcount(x));
        if (x) printf(" clz=%d ctz=%d", __builtin_clz(x), __builtin_ctz(x));
        printf(" pow2=%d rev=%08x rotl7=%08x rotr7=%08x gray=%08x parity=%d np2=%08x\n", x && !(x & (x - 1)),
               reverse_bits(x), rotl(x, 7), rotr(x, 7), x ^ (x >> 1), __builtin_parity(x), next_pow2(x));
    }
    uint64_t big = 0xF0F0F0F0F0F0F0F0ULL;
    printf("popcount64=%d clzll=%d ctzll=%d\n", popcount_kernighan(big), __builtin_clzll(big >> 3), __builtin_ctzll(big));
    uint32_t reg = 0;
    reg |= (5u & 0x7) << 4;       /* field bits 4..6 */
    reg |= 1u << 31;
    reg |= (0x3FFu & 0x2A5) << 10;  /* field bits 10..19 */
    printf("reg=%08x field1=%u field2=%x top=%u\n", reg, (reg >> 4) & 7, (reg >> 10) & 0x3FF, reg >> 31);
    reg &= ~(7u << 4);
    printf("cleared field1 reg=%08x\n", reg);
    reg ^= 0xFF;
    printf("toggled low byte reg=%08x\n", reg);
    for (int n = 0; n <= 32; n += 8) {
        uint64_t mask = n == 64 ? ~0ULL : ((1ULL << n) - 1);
        printf("mask(%d)=%llx\n", n, (unsigned long long)mask);
    }
    int x = -20;
    printf("lowest set bit of %d: %d, abs via bits: %d\n", x, x & -x, (x ^ (x >> 31)) - (x >> 31));
    unsigned sub = 0xB;  /* iterate all submasks */
    printf("submasks of 0xB:");
    for (unsigned s = sub; ; s = (s - 1) & sub) { printf(" %x", s); if (!s) break; }
    printf("\n");
    uint8_t b = 0x96;
    uint8_t swapped = (uint8_t)((b >> 4) | (b << 4));
    printf("nibble swap %02x -> %02x\n", b, swapped);
    printf("bswap32(0x11223344)=%08x\n", __builtin_bswap32(0x11223344u));
    return 0;
}
