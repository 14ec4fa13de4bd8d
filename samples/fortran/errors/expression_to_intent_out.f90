! An array expression passed to an `intent(out)` dummy: an actual that is not a variable may not
! be defined by the procedure (Fortran 2003 §12.4.1.2); gfortran rejects it too ("Non-variable
! expression in variable definition context").
! expect-stderr: argument `y` of `twice` is `intent(out)` but an expression is given, not a variable
! expect-stderr: expression_to_intent_out.f90:10
program expression_to_intent_out
  implicit none
  real :: a(4)
  a = 1
  call twice(a, a + 1)
  print *, a
contains
  subroutine twice(x, y)
    real, intent(in) :: x(:)
    real, intent(out) :: y(:)
    y = 2 * x
  end subroutine twice
end program expression_to_intent_out
