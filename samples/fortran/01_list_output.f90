! List-directed output of every intrinsic type, byte for byte as gfortran writes it
! (Fortran 2003 §10.9.2).
program list_output
  implicit none
  integer :: i
  integer(8) :: big
  real :: x
  double precision :: d
  logical :: flag
  i = -42
  big = 9000000000_8
  x = 3.14159
  d = 2.718281828459045d0
  flag = .false.
  print *, i, big
  print *, x, d
  print *, 'text', 'more', i, 'after'
  print *, flag, .true., 'x'
  print *, 0.1, 1.0e-3, 1.0e9, 123456.7, -0.5
  print *, 1.0d0/3.0d0, 1.0d20, 1.0d-20, 0.0d0
  print *, 100000000.0, 99999999.0, 0.099999
  print *
end program list_output
