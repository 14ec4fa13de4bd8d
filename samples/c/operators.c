// Exercises: operators: comma, conditional (nested, as lvalue via pointer),
// compound assignment with every operator (+= -= *= /= %= <<= >>= &= |= ^=)
// on ints, unsigned, doubles and pointers, pre/post increment and decrement
// on ints, pointers, floats and doubles, precedence and associativity.
#include <stdio.h>

int main(void) {
    int a = (1, 2, 3);
    printf("comma value %d\n", a);
    int x = 0, y = 0;
    y = (x = 5, x * 2);
    printf("x=%d y=%d\n", x, y);
    for (int i = 0, j = 3; i < 3; i++, j--) printf("(%d,%d) ", i, j);
    printf("\n");
    int v = 17;
    const char *s = v > 10 ? v > 15 ? "big" : "medium" : "small";
    printf("nested ?: %s\n", s);
    int p = 1, q = 2;
    *(v > 0 ? &p : &q) = 42;
    printf("?: as lvalue via pointer p=%d q=%d\n", p, q);
    printf("?: mixed types %g\n", v > 0 ? 1 : 2.5);
    int c = 100;
    c += 5;  printf("+= %d\n", c);
    c -= 15; printf("-= %d\n", c);
    c *= 3;  printf("*= %d\n", c);
    c /= 7;  printf("/= %d\n", c);
    c %= 10; printf("%%= %d\n", c);
    c <<= 4; printf("<<= %d\n", c);
    c >>= 2; printf(">>= %d\n", c);
    c &= 0x1C; printf("&= %d\n", c);
    c |= 0x41; printf("|= %d\n", c);
    c ^= 0xFF; printf("^= %d\n", c);
    int neg = -100;
    neg /= 7;  printf("neg /= 7: %d\n", neg);
    neg %= 5;  printf("neg %%= 5: %d\n", neg);
    neg >>= 1; printf("neg >>= 1: %d\n", neg);
    unsigned u = 10;
    u -= 20; printf("unsigned -= %u\n", u);
    u *= 3;  printf("unsigned *= %u\n", u);
    u >>= 28; printf("unsigned >>= %u\n", u);
    double d = 10.0;
    d += 0.5; d -= 0.25; d *= 4; d /= 3;
    printf("double ops %.17g\n", d);
    int ci = 7;
    ci *= 2.5;  /* computed in double then truncated */
    printf("int *= 2.5 -> %d\n", ci);
    ci += 0.9;
    printf("int += 0.9 -> %d\n", ci);
    char ch = 'a';
    ch += 2;
    printf("char += 2 -> %c\n", ch);
    unsigned char uc = 250;
    uc += 10;
    printf("uchar 250 += 10 -> %d\n", uc);
    short sh = 1000;
    sh *= 100;  /* 100000 converted to short */
    printf("short 1000 *= 100 -> %d\n", sh);
    /* increments */
    int i = 5;
    int r1 = i++;
    int r2 = ++i;
    int r3 = i--;
    int r4 = --i;
    printf("i++=%d ++i=%d i--=%d --i=%d final=%d\n", r1, r2, r3, r4, i);
    float f = 1.5f;
    f++;
    ++f;
    float fr = f--;
    printf("float ++/-- : f=%.9g fr=%.9g\n", f, fr);
    double dd = -0.5;
    dd++;
    printf("double -0.5++ = %g\n", dd);
    float big = 16777216.0f;
    big++;
    printf("float 2^24 ++ = %.1f\n", big);
    int arr[] = {10, 20, 30, 40, 50};
    int *ptr = arr;
    printf("*ptr++ = %d\n", *ptr++);
    printf("*++ptr = %d\n", *++ptr);
    printf("++*ptr = %d\n", ++*ptr);
    printf("(*ptr)++ = %d\n", (*ptr)++);
    printf("now arr[2]=%d\n", arr[2]);
    ptr += 2;
    printf("ptr += 2 -> %d\n", *ptr);
    ptr -= 3;
    printf("ptr -= 3 -> %d\n", *ptr);
    ptr--;
    printf("ptr-- -> %d\n", *ptr);
    double darr[3] = {0.5, 1.5, 2.5};
    double *dp = &darr[2];
    --dp;
    printf("double ptr -- -> %g\n", *dp);
    /* precedence */
    printf("2+3*4=%d (2+3)*4=%d 10-4-3=%d 2*3%%4=%d\n", 2 + 3 * 4, (2 + 3) * 4, 10 - 4 - 3, 2 * 3 % 4);
    printf("1<<2+1=%d 6&3==2=%d 1|2^3&4=%d\n", 1 << 2 + 1, 6 & 3 == 2, 1 | 2 ^ 3 & 4);
    printf("-2*-3=%d !0+1=%d ~0u>>28=%u -!0=%d\n", -2 * -3, !0 + 1, ~0u >> 28, -!0);
    int m = 3, n = 4;
    m = n = m + n;
    printf("chained assignment m=%d n=%d\n", m, n);
    int z = 10;
    int t = (z *= 2);
    z += t;
    printf("z=%d\n", z);
    printf("sizeof(char)+1 in ?: %zu\n", sizeof(1 ? (char)1 : (char)2));
    return 0;
}
