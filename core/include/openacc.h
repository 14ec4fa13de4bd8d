/*
 * openacc.h -- the OpenACC 2.0 runtime library interface, as accsim provides it.
 *
 * accsim puts this header on the include path ahead of the system one when it preprocesses a
 * program, and its C library shim implements every routine declared here on the selected device.
 * The driver defines _OPENACC (to 201306); this header does not.
 *
 * Section numbers refer to the OpenACC 2.0 specification: chapter 3 (runtime library) and
 * section 6.2.1 (NVIDIA CUDA platform routines). Where the 2.0 draft and the final 2.0 document
 * name a routine differently, both names are declared with the same signature.
 */
#ifndef ACCSIM_OPENACC_H
#define ACCSIM_OPENACC_H

#include <stddef.h> /* size_t */

#ifdef __cplusplus
extern "C" {
#endif

/* §3.1: the type of accelerator devices. The first four values are always supported;
 * acc_device_nvidia is the name §6.1.1.1 recommends for NVIDIA GPUs. */
typedef enum {
    acc_device_none = 0,
    acc_device_default = 1,
    acc_device_host = 2,
    acc_device_not_host = 3,
    acc_device_nvidia = 4
} acc_device_t;

/* §2.13.1, §3.1: the special async-values. An async clause with acc_async_noval behaves as one
 * with no argument; one with acc_async_sync behaves as if no async clause appeared. */
#define acc_async_noval (-1)
#define acc_async_sync (-2)

/* §3.2.1 */ int acc_get_num_devices(acc_device_t);
/* §3.2.2 */ void acc_set_device_type(acc_device_t);
/* §3.2.3 */ acc_device_t acc_get_device_type(void);
/* §3.2.4 */ void acc_set_device_num(int, acc_device_t);
/* §3.2.5 */ int acc_get_device_num(acc_device_t);

/* §3.2.6 */ int acc_async_test(int);
/* §3.2.7 */ int acc_async_test_all(void);
/* §3.2.8 */ void acc_wait(int);
/* §3.2.9: enqueue on queue async (2nd argument) a wait for queue arg (1st argument). */
void acc_wait_async(int, int);
/* §3.2.10 */ void acc_wait_all(void);
/* §3.2.11: enqueue on queue async a wait for every other queue. */
void acc_wait_all_async(int);
/* acc_async_wait and acc_async_wait_all name two routines each: in OpenACC 1.0 (and in the
 * openacc.h of gcc and nvc) acc_async_wait(int) is acc_wait and acc_async_wait_all(void) is
 * acc_wait_all; the 2.0 document names acc_wait_async and acc_wait_all_async so (int, int) and
 * (int). They are declared without a prototype so that programs written for either compile;
 * accsim runs both forms the same way, waiting on the host for queue arg (every queue), which
 * the queued forms allow (§2.13). Under C23, where () means (void), only the 1.0 form of
 * acc_async_wait_all compiles, and acc_async_wait needs the 1.0 form's own declaration. */
void acc_async_wait();
void acc_async_wait_all();

/* §3.2.12 */ void acc_init(acc_device_t);
/* §3.2.13 */ void acc_shutdown(acc_device_t);
/* §3.2.14 */ int acc_on_device(acc_device_t);

/* §3.2.15 */ void *acc_malloc(size_t);
/* §3.2.16 */ void acc_free(void *);

/* §3.2.17 */ void *acc_copyin(void *, size_t);
/* §3.2.18 */ void *acc_present_or_copyin(void *, size_t);
/* §3.2.18 */ void *acc_pcopyin(void *, size_t);
/* §3.2.19 */ void *acc_create(void *, size_t);
/* §3.2.20 */ void *acc_present_or_create(void *, size_t);
/* §3.2.20 */ void *acc_pcreate(void *, size_t);
/* §3.2.21 */ void acc_copyout(void *, size_t);
/* §3.2.22 */ void acc_delete(void *, size_t);
/* §3.2.23 */ void acc_update_device(void *, size_t);
/* §3.2.24: copy device data back to the local (host) copy. acc_update_self is the final 2.0
 * name, acc_update_local the 2.0 draft's. */
void acc_update_self(void *, size_t);
void acc_update_local(void *, size_t);

/* §3.2.25: map preallocated device memory to host data, for a dynamic data lifetime.
 * Arguments (host address, device address, bytes), as final 2.0 and nvc order them; the 2.0
 * draft's description lists the device address first. */
void acc_map_data(void *, void *, size_t);
/* §3.2.26: end the lifetime acc_map_data started, without freeing the device memory. */
void acc_unmap_data(void *);
/* §3.2.27 */ void *acc_deviceptr(void *);
/* §3.2.28 */ void *acc_hostptr(void *);
/* §3.2.29 */ int acc_is_present(void *, size_t);
/* §3.2.30 */ void acc_memcpy_to_device(void *dest, void *src, size_t bytes);
/* §3.2.31 */ void acc_memcpy_from_device(void *dest, void *src, size_t bytes);

/* §6.2.1: NVIDIA CUDA platform routines. Handles are opaque (CUdevice, CUcontext, CUstream). */
/* §6.2.1.1 */ void *acc_get_current_cuda_device(void);
/* §6.2.1.2 */ void *acc_get_current_cuda_context(void);
/* §6.2.1.3 */ void *acc_get_cuda_stream(int async);
/* §6.2.1.4 */ void acc_set_cuda_stream(int async, void *stream);

/* Cray CCE's debug-output routines (CCE man page, "CRAY_ACC_DEBUG Output Routines"): the level
 * (1 to 3; 0 or less: no output) and the message prefix (default "ACC:") of the CRAY_ACC_DEBUG
 * runtime commentary. The thread settings override the global ones. */
char *cray_acc_get_debug_global_prefix(void);
void cray_acc_set_debug_global_prefix(char *);
char *cray_acc_get_debug_thread_prefix(void);
void cray_acc_set_debug_thread_prefix(char *);
int cray_acc_get_debug_global_level(void);
void cray_acc_set_debug_global_level(int);
int cray_acc_get_debug_thread_level(void);
void cray_acc_set_debug_thread_level(int);

#ifdef __cplusplus
}
#endif

#endif /* ACCSIM_OPENACC_H */
