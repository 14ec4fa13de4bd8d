// Exercises: stdint.h / inttypes.h fixed-width types, their limits, the
// PRId64/PRIu64/PRIx32 format macros, and wrap-around of uint8_t/uint16_t.
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>

int main(void) {
    int8_t i8 = INT8_MIN;
    uint8_t u8 = UINT8_MAX;
    int16_t i16 = INT16_MAX;
    uint16_t u16 = UINT16_MAX;
    int32_t i32 = INT32_MIN;
    uint32_t u32 = UINT32_MAX;
    int64_t i64 = INT64_MAX;
    uint64_t u64 = UINT64_MAX;
    printf("int8 %" PRId8 " uint8 %" PRIu8 "\n", i8, u8);
    printf("int16 %" PRId16 " uint16 %" PRIu16 "\n", i16, u16);
    printf("int32 %" PRId32 " uint32 %" PRIu32 "\n", i32, u32);
    printf("int64 %" PRId64 " uint64 %" PRIu64 "\n", i64, u64);
    printf("INT64_MIN %" PRId64 "\n", INT64_MIN);
    printf("hex32 %" PRIx32 " HEX64 %" PRIX64 "\n", (uint32_t)0xDEADBEEF, (uint64_t)0xCAFEBABE12345678ULL);
    u8++;
    u16 += 2;
    printf("wrapped u8 %u u16 %u\n", u8, u16);
    uint32_t x = 0x80000000u;
    x <<= 1;
    printf("u32 shifted out: %" PRIu32 "\n", x);
    printf("sizes: %zu %zu %zu %zu %zu %zu\n", sizeof(int8_t), sizeof(int16_t), sizeof(int32_t),
           sizeof(int64_t), sizeof(intptr_t), sizeof(uintmax_t));
    intmax_t im = INTMAX_MAX;
    printf("intmax %jd\n", im);
    uint64_t acc = 1;
    for (int i = 0; i < 70; i++) {
        acc *= 3;
        if (i % 10 == 9) printf("3^%d mod 2^64 = %" PRIu64 "\n", i + 1, acc);
    }
    int64_t sacc = -1;
    for (int i = 0; i < 40; i++) sacc *= 2;
    printf("-(2^40) = %" PRId64 "\n", sacc);
    printf("INT32_C %d UINT64_C %" PRIu64 "\n", INT32_C(42), UINT64_C(18446744073709551615));
    uint_fast8_t f8 = 200;
    int_least16_t l16 = -1234;
    printf("fast/least: %u %d\n", (unsigned)f8, l16);
    printf("SIZE_MAX %zu\n", SIZE_MAX);
    return 0;
}
