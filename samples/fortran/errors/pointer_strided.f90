! A pointer to a section with a stride: accsim's array pointers have no strides (each points at
! contiguous elements), so the pointer assignment is named unsupported with its line.
! expect-stderr: a pointer to a section of `a` that is not contiguous
! expect-stderr: pointer_strided.f90:10
program pointer_strided
  implicit none
  real, target :: a(10)
  real, pointer :: p(:)
  a = 1
  p => a(1:10:2)
  print *, sum(p)
end program pointer_strided
