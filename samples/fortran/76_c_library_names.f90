! Issue 16: Fortran names that the C library gives a meaning to. The translation declares the C
! library it uses itself and is not run through the C preprocessor again, so no C macro replaces
! a Fortran name (`unix` and `linux` were replaced by 1), and a module variable named like a
! C routine (`clock`, `carg`, `csinh`) or a C object (`stdout`) is the program's own.
module c_names
  implicit none
  integer :: clock = 0, carg = 0
  real :: csinh = 0
  integer :: stdout = 6
contains
  subroutine tick(n)
    integer, intent(in) :: n
    clock = clock + n
    carg = carg + 1
    csinh = sinh(real(clock) / 10)
  end subroutine tick
end module c_names

program c_library_names
  use c_names
  implicit none
  integer :: unix, linux, i
  real(8) :: fmax, erf
  unix = 3
  linux = 4
  fmax = -1
  erf = 0
  do i = 1, unix + linux
    call tick(i)
    fmax = max(fmax, dble(csinh))
    erf = erf + sqrt(dble(i))
  end do
  print *, unix, linux, clock, carg, stdout
  print '(2f12.6)', fmax, erf
  print '(a, f8.4)', 'csinh ', csinh
end program c_library_names
