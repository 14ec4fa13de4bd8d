! A data region around two kernels, with update host/device of array sections (§2.6.5, §2.14.4).
program data_update
  implicit none
  integer, parameter :: n = 64
  double precision :: a(n), b(n)
  integer :: i
  a = 1.0d0
  b = 0.0d0
  !$acc data copy(a) create(b)
  !$acc parallel loop
  do i = 1, n
    b(i) = a(i) * i
  end do
  !$acc update host(b(1:8))
  print *, 'first eight:', b(1:8)
  b(1:8) = -1.0d0
  !$acc update device(b(1:8))
  !$acc parallel loop
  do i = 1, n
    a(i) = a(i) + b(i)
  end do
  !$acc end data
  print *, a(1), a(8), a(9), a(n)
end program data_update
