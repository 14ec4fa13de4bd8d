! Derived types are not supported yet: accsim names the feature and the line.
! expect-stderr: not supported by accsim: Fortran: derived types (`type`)
! expect-stderr: derived_type.f90:6
program derived
  implicit none
  type point
    real :: x, y
  end type point
  print *, 'never'
end program derived
