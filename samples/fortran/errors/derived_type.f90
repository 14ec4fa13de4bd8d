! A reference to a component the derived type does not have (Fortran 2003 §6.1.2): accsim names
! the type, the component and the line.
! expect-stderr: type `point` has no component `z`
! expect-stderr: derived_type.f90:12
program derived
  implicit none
  type point
    real :: x, y
  end type point
  type(point) :: p
  p%x = 1.0
  p%z = 2.0
  print *, p
end program derived
