// Exercises: float.h constants (FLT_/DBL_ EPSILON, MIN, MAX, DIG,
// MANT_DIG), printing them with %g / %.17g / %a, and machine epsilon loops.
#include <stdio.h>
#include <float.h>

int main(void) {
    printf("FLT_RADIX %d\n", FLT_RADIX);
    printf("FLT_MANT_DIG %d DBL_MANT_DIG %d\n", FLT_MANT_DIG, DBL_MANT_DIG);
    printf("FLT_DIG %d DBL_DIG %d\n", FLT_DIG, DBL_DIG);
    printf("FLT_EPSILON %.9g DBL_EPSILON %.17g\n", FLT_EPSILON, DBL_EPSILON);
    printf("FLT_MIN %.9g FLT_MAX %.9g\n", FLT_MIN, FLT_MAX);
    printf("DBL_MIN %.17g DBL_MAX %.17g\n", DBL_MIN, DBL_MAX);
    printf("FLT_MAX %a DBL_MAX %a\n", FLT_MAX, DBL_MAX);
    printf("DBL_MIN %a FLT_EPSILON %a\n", DBL_MIN, FLT_EPSILON);
    printf("FLT_MIN_EXP %d FLT_MAX_EXP %d DBL_MIN_EXP %d DBL_MAX_EXP %d\n",
           FLT_MIN_EXP, FLT_MAX_EXP, DBL_MIN_EXP, DBL_MAX_EXP);
    printf("DBL_MIN_10_EXP %d DBL_MAX_10_EXP %d\n", DBL_MIN_10_EXP, DBL_MAX_10_EXP);
    float fe = 1.0f;
    int fn = 0;
    while ((float)(1.0f + fe / 2.0f) != 1.0f) { fe /= 2.0f; fn++; }
    printf("computed float eps %.9g after %d halvings, equal=%d\n", fe, fn, fe == FLT_EPSILON);
    double de = 1.0;
    int dn = 0;
    while (1.0 + de / 2.0 != 1.0) { de /= 2.0; dn++; }
    printf("computed double eps %.17g after %d halvings, equal=%d\n", de, dn, de == DBL_EPSILON);
    double tiny = DBL_MIN;
    int steps = 0;
    while (tiny > 0.0) { tiny /= 2.0; steps++; }
    printf("halvings from DBL_MIN to 0: %d\n", steps);
    double sub = DBL_MIN / 4.0;
    printf("subnormal %.17g %a\n", sub, sub);
    printf("%e %e\n", DBL_MAX, DBL_MIN);
    return 0;
}
