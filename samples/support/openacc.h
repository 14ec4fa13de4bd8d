/* openacc.h — host-only declarations of the OpenACC 2.0 runtime library (spec ch. 3), used ONLY
 * to build the samples with a plain C compiler that ignores `#pragma acc` (gcc without
 * -fopenacc), so that their golden outputs can be produced by sequential host execution.
 * accsim itself puts its own openacc.h (core/include/) on the include path instead.
 * The implementation is openacc_host.c: a shared-memory "host device" (spec §2.6, §1.3). */
#ifndef ACCSIM_SAMPLES_OPENACC_HOST_H
#define ACCSIM_SAMPLES_OPENACC_HOST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* §3.1: the four values every implementation supports, plus the vendor name of §6.1.1. */
typedef enum acc_device_t {
    acc_device_none = 0,
    acc_device_default = 1,
    acc_device_host = 2,
    acc_device_not_host = 3,
    acc_device_nvidia = 4
} acc_device_t;

/* §2.13.1 / §3.1: the two special async values. */
#define acc_async_noval (-1)
#define acc_async_sync (-2)

int acc_get_num_devices(acc_device_t);            /* §3.2.1 */
void acc_set_device_type(acc_device_t);           /* §3.2.2 */
acc_device_t acc_get_device_type(void);           /* §3.2.3 */
void acc_set_device_num(int, acc_device_t);       /* §3.2.4 */
int acc_get_device_num(acc_device_t);             /* §3.2.5 */
int acc_async_test(int);                          /* §3.2.6 */
int acc_async_test_all(void);                     /* §3.2.7 */
void acc_wait(int);                               /* §3.2.8 */
void acc_async_wait(int, int);                    /* §3.2.9 */
void acc_wait_async(int, int);                    /* §1.7: new name of acc_async_wait */
void acc_wait_all(void);                          /* §3.2.10 */
void acc_async_wait_all(int);                     /* §3.2.11 */
void acc_wait_all_async(int);                     /* §1.7: new name of acc_async_wait_all */
void acc_init(acc_device_t);                      /* §3.2.12 */
void acc_shutdown(acc_device_t);                  /* §3.2.13 */
int acc_on_device(acc_device_t);                  /* §3.2.14 */
void *acc_malloc(size_t);                         /* §3.2.15 */
void acc_free(void *);                            /* §3.2.16 */
void *acc_copyin(void *, size_t);                 /* §3.2.17 */
void *acc_present_or_copyin(void *, size_t);      /* §3.2.18 */
void *acc_pcopyin(void *, size_t);
void *acc_create(void *, size_t);                 /* §3.2.19 */
void *acc_present_or_create(void *, size_t);      /* §3.2.20 */
void *acc_pcreate(void *, size_t);
void acc_copyout(void *, size_t);                 /* §3.2.21 */
void acc_delete(void *, size_t);                  /* §3.2.22 */
void acc_update_device(void *, size_t);           /* §3.2.23 */
void acc_update_local(void *, size_t);            /* §3.2.24 */
void acc_update_self(void *, size_t);             /* later name of acc_update_local */
void acc_map_data(void *, void *, size_t);        /* §3.2.25 */
void acc_unmap_data(void *);                      /* §3.2.26 */
void *acc_deviceptr(void *);                      /* §3.2.27 */
void *acc_hostptr(void *);                        /* §3.2.28 */
int acc_is_present(void *, size_t);               /* §3.2.29 */
void acc_memcpy_to_device(void *dest, void *src, size_t bytes);   /* §3.2.30 */
void acc_memcpy_from_device(void *dest, void *src, size_t bytes); /* §3.2.31 */

#ifdef __cplusplus
}
#endif

#endif
