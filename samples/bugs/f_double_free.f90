! The same array deallocated through two pointers (Fortran 2003 §6.3.3.2: after the first
! `deallocate`, the second pointer's association is undefined; gfortran's run aborts in free).
! The finding names both `deallocate` statements and the `allocate` statement of the block.
program double_free
  implicit none
  real, pointer :: a(:, :), alias(:, :)
  integer :: n
  n = 3
  allocate(a(n, n))
  a = 0
  alias => a
  deallocate(a)
  deallocate(alias) ! expect: double-free
end program double_free
