// C11 6.4.4.2: a hexadecimal floating constant is its exact value rounded to its type, subnormals
// included. The front end used its own conversion, which scaled by a power of two in `double` and
// so turned constants below about 2^-1000 into 0 (`0x1.ffffffffffffep-1023` printed `0x0p+0`);
// it now reads the text as `strtod`/`strtof` do (core/src/libc/strconv.rs). Every line must be
// gcc's: ties to even at 53 and 24 bits, normal and subnormal, the largest finite values.
#include <stdio.h>

int main(void)
{
    double d[] = {0x1.8p3, 0x.8p0, 0X1P-1074, 0x1.fffffffffffff8p1023, 0x1.00000000000008p0,
                  0x1.00000000000018p0, 0x123456789abcdef0123p-40, 0x1.0000000000000801p0,
                  0x0.0000000000001p-1022, 0x1.ffffffffffffep-1023, 0x3p-1076, -0x1p-1074,
                  0x1p+4L, 0x1.8p-1070};
    float f[] = {0x1.8p3f, 0x1p-149f, 0x1.7p-149f, 0x1.8p-149f, 0x1.000002p-140f,
                 0x1.0000030p-140f, 0x1.fffffep127f, 0x1.000001p0f, 0x1.0000011p0f, 0x3p-151f,
                 0xa.bcdp-130f, 0x1.fffffcp-127f};
    for (unsigned i = 0; i < sizeof d / sizeof d[0]; i++)
        printf("d%u %a\n", i, d[i]);
    for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++)
        printf("f%u %a\n", i, (double)f[i]);
    return 0;
}
