// §2.3.1: "Clauses on OpenACC constructs do not modify the ICV values." A compute construct with
// device_type clauses leaves acc-device-type-var and acc-device-num-var as they were.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    acc_device_t before = acc_get_device_type();
    int num_before = acc_get_device_num(before);
    int n = 0;
#pragma acc parallel reduction(+:n) num_gangs(2) device_type(*) num_gangs(3)
    {
        n += 1;
    }
    printf("n = %d\n", n);
    printf("type unchanged: %d\n", acc_get_device_type() == before);
    printf("num unchanged: %d\n", acc_get_device_num(before) == num_before);
    return 0;
}
