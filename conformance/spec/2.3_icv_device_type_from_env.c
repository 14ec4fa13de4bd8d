// accsim-env: ACC_DEVICE_TYPE=host
// §2.3: "These ICVs are initialized by the implementation, and may be given values through
// environment variables and through calls to OpenACC API routines. The program can retrieve
// values through calls to OpenACC API routines." ACC_DEVICE_TYPE=host sets acc-device-type-var
// before the first construct; acc_get_device_type reads it back.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    printf("device type is host: %d\n", acc_get_device_type() == acc_device_host);
    return 0;
}
