! expect-exit: 2
! Issue 16 (session 13): `deallocate` of an allocatable component that is no longer allocated is
! an error condition (Fortran 2003 §6.3.3.1; no `stat=`): the program stops with libgfortran's
! message naming the variable (`'field'`) and exit status 2. accsim wrote the component's name
! into a C format string, where the `%d` of `field%data` read a missing argument and stopped
! the run with an internal printf error (exit 3). The output before it is kept.
module fields
  implicit none
  type field_t
    integer :: n = 0
    real(8), allocatable :: data(:)
  end type field_t
contains
  subroutine release(f)
    type(field_t), intent(inout) :: f
    deallocate(f%data)
    f%n = 0
  end subroutine release
end module fields

program deallocate_component_twice
  use fields
  implicit none
  type(field_t) :: field
  integer :: i
  field%n = 6
  allocate(field%data(field%n))
  do i = 1, field%n
    field%data(i) = 0.5d0 * i
  end do
  print '(a, f6.2)', 'sum ', sum(field%data)
  call release(field)
  print '(a, l1)', 'allocated after release: ', allocated(field%data)
  deallocate(field%data)
  print '(a)', 'not reached'
end program deallocate_component_twice
