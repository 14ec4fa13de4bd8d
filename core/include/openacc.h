/* placeholder: replaced by the full OpenACC 2.0 header */
#ifndef ACCSIM_OPENACC_H
#define ACCSIM_OPENACC_H
#endif
