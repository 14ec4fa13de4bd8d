! Issue 16 (session 10): allocatable components are deallocated with the value that holds them
! (Fortran 2003 §6.3.3.1: when a variable of derived type is deallocated, or an unsaved local
! of a procedure ends at its return, "any allocated allocatable subobject is deallocated"), and
! an `intent(out)` dummy's are deallocated at entry (§5.1.2.7), as gfortran does. accsim left
! them allocated: a procedure whose local holds an 8 MB component, called 1100 times, ran out
! of the run's 8 GiB of memory. Forms: a scalar local, a local array of the type, a nested
! component, `deallocate` of an allocatable array of the type in a loop, an `intent(out)`
! dummy, and a component in a data clause.
module fields
  implicit none
  type grid
    integer :: n = 0
    real(8), allocatable :: values(:)
  end type grid
  type pair
    type(grid) :: left, right
  end type pair
contains
  ! A local grid with an 8 MB component (its first and last elements set), at each call.
  real(8) function scratch_sum(k)
    integer, intent(in) :: k
    type(grid) :: g
    g%n = 1048576
    allocate(g%values(g%n))
    g%values(1) = k
    g%values(g%n) = 2 * k
    scratch_sum = g%values(1) + g%values(g%n)
  end function scratch_sum

  ! Local arrays of the type and a nested component, with 2 MB components.
  integer function nested_sizes(k)
    integer, intent(in) :: k
    type(grid) :: many(2)
    type(pair) :: p
    allocate(many(1)%values(262144), many(2)%values(262144))
    allocate(p%left%values(262144), p%right%values(k))
    nested_sizes = size(many(1)%values) + size(p%right%values)
  end function nested_sizes

  ! An intent(out) dummy: its component is not allocated at entry.
  subroutine reset(g, n)
    type(grid), intent(out) :: g
    integer, intent(in) :: n
    print *, 'reset: allocated at entry', allocated(g%values)
    g%n = n
    allocate(g%values(n))
    g%values = 1.0d0
  end subroutine reset
end module fields

program allocatable_components_freed
  use fields
  implicit none
  type(grid), allocatable :: set(:)
  type(grid) :: g
  real(8) :: total
  integer :: i, j, sizes
  total = 0.0d0
  do i = 1, 1100
    total = total + scratch_sum(i)
  end do
  print *, 'scratch total', total
  sizes = 0
  do i = 1, 1500
    sizes = sizes + nested_sizes(i)
  end do
  print *, 'nested sizes', sizes
  ! An allocatable array of the type, allocated and deallocated again and again.
  do i = 1, 100
    allocate(set(8))
    do j = 1, 8
      allocate(set(j)%values(4096))
      set(j)%values = j
    end do
    total = sum(set(3)%values) / 4096
    deallocate(set)
  end do
  allocate(set(2))
  print *, 'set', total, allocated(set(1)%values), allocated(set(2)%values)
  deallocate(set)
  allocate(g%values(3))
  g%values = 7.0d0
  call reset(g, 4)
  ! The component's data in a data clause (OpenACC 2.0 §2.7), doubled on the device.
  !$acc data copy(g%values)
  !$acc parallel loop present(g%values)
  do i = 1, g%n
    g%values(i) = 2.0d0 * g%values(i)
  end do
  !$acc end data
  print *, 'g', g%n, size(g%values), g%values
end program allocatable_components_freed
