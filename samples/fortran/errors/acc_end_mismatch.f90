! `!$acc end kernels` closing a `parallel` construct.
! expect-stderr: expected `!$acc end parallel` (for the `!$acc parallel` at line 7)
! expect-stderr: acc_end_mismatch.f90:9
program acc_end_mismatch
  real :: a(10)
  a = 0.0
  !$acc parallel
  a(1) = 1.0
  !$acc end kernels
  print *, a(1)
end program acc_end_mismatch
