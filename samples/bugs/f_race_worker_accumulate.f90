! Workers of one gang all add into the same element: only the end of the worker loop
! synchronises them (OpenACC 2.0 §1.2). A `reduction` clause is what was meant.
program race_worker_accumulate
  implicit none
  real :: a(128), total(1)
  integer :: i
  a = 1.0
  total = 0.0
  !$acc parallel num_gangs(1) num_workers(4) vector_length(1) copyin(a) copy(total)
  !$acc loop worker
  do i = 1, 128
    total(1) = total(1) + a(i) ! expect: data-race
  end do
  !$acc end parallel
  print '(a, f0.1)', 'total = ', total(1)
end program race_worker_accumulate
