// §2.2: "The _OPENACC macro name is defined to have a value yyyymm" -- at least the version this
// document describes (201304) when OpenACC directives are enabled.
#include <stdio.h>
int main(void) {
#ifdef _OPENACC
    printf("_OPENACC defined\n");
    printf("at least 201304: %s\n", _OPENACC >= 201304 ? "yes" : "no");
    printf("yyyymm month valid: %s\n", (_OPENACC % 100) >= 1 && (_OPENACC % 100) <= 12 ? "yes" : "no");
#else
    printf("_OPENACC not defined\n");
#endif
    return 0;
}
