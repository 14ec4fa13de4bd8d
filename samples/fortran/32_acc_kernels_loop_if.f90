! kernels loop with an if clause, present_or_copy, num_gangs/vector_length on parallel.
program kernels_loop_if
  implicit none
  integer, parameter :: n = 200
  double precision :: v(n)
  integer :: i
  logical :: on_device
  v = 0.0d0
  on_device = n > 100
  !$acc kernels loop if(on_device) pcopy(v)
  do i = 1, n
    v(i) = dble(i) / 2.0d0
  end do
  !$acc parallel loop num_gangs(4) vector_length(32) present_or_copy(v)
  do i = 1, n
    v(i) = v(i) * v(i)
  end do
  print *, v(1), v(n), sum(v)
end program kernels_loop_if
