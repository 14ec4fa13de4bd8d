/*
 * accel.h -- the PGI Accelerator 1.3 runtime library interface (1.3 §3.1), as accsim provides it.
 *
 * accsim puts this header beside its openacc.h. The 1.3 routines that OpenACC 2.0 kept under the
 * same name (acc_get_num_devices, acc_set_device_num, acc_get_device_num, acc_async_test,
 * acc_init, acc_shutdown, acc_on_device) and the acc_device_t type come from openacc.h; 1.3's
 * acc_set_device and acc_get_device are 2.0's acc_set_device_type and acc_get_device_type, and
 * acc_async_wait(handle) waits for the activities of an async handle (1.3 §3.2.7).
 * Under --dialect pgi-1.3 the driver defines _ACCEL (1.3 §2.2) to 201011.
 */
#ifndef ACCSIM_ACCEL_H
#define ACCSIM_ACCEL_H

#include <openacc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1.3 §3.2.2 */ void acc_set_device(acc_device_t);
/* 1.3 §3.2.3 */ acc_device_t acc_get_device(void);

#ifdef __cplusplus
}
#endif

#endif
