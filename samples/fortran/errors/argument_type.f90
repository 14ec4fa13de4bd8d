! An actual argument of the wrong type (Fortran passes by reference: no conversion happens).
! expect-stderr: argument `x` of `show` is real(4) but integer(4) is given
! expect-stderr: argument_type.f90:6
program argument_type
  implicit none
  call show(3)
contains
  subroutine show(x)
    real, intent(in) :: x
    print *, x
  end subroutine show
end program argument_type
