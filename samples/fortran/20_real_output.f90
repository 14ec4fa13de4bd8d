! List-directed real output at the G-editing boundaries (gfortran: 0.1 <= |x| < 10**d uses F).
program real_output
  implicit none
  real :: r(8)
  double precision :: d(6)
  r = [0.1, 0.09999999, 1.0e8, 9.9999999e7, 1.0e-10, -1.0e30, 5.5e-1, 3.0]
  d = [0.1d0, 1.0d16, 9.99999999999999999d15, 1.0d-300, -7.25d0, 1.0d100]
  print *, r
  print *, d
  print *, 1.0 / 7.0, 2.0d0 / 7.0d0, -0.0
end program real_output
