! `present` on an allocatable array that was allocated on the host but never mapped
! (OpenACC 2.0 §2.6.5.6: `present` asserts the data is on the device).
program present_allocatable
  implicit none
  real, allocatable :: x(:)
  integer :: i, n
  n = 40
  allocate(x(n))
  x = 1.0
  !$acc parallel loop present(x) ! expect: not-present
  do i = 1, n
    x(i) = x(i) + i
  end do
  print '(a, f0.1)', 'x(n) = ', x(n)
  deallocate(x)
end program present_allocatable
