! Issue 16 (session 10): pointer components (Fortran 2003 §4.5.3, §5.1.2.11): a scalar pointer
! component is the address of its target, an array one has an allocatable component's layout
! with the target's bounds; a new value has them disassociated (`=> null()`), and deallocating
! the value does not deallocate the targets (§6.3.3.1). Forms: a linked list of a type whose
! `next` points at its own type (built with `allocate`, walked, its nodes freed one by one),
! `associated` and `nullify` of components, an array pointer component pointing at a whole
! array and at a contiguous section (with `lbound`/`ubound`), `x%p => y%p`, a scalar pointer
! component into an array, and the pointed-at data in a compute construct.
module lists
  implicit none
  type node
    integer :: value = 0
    type(node), pointer :: next => null()
  end type node
  type window
    real(8), pointer :: data(:) => null()
    real(8), pointer :: peak => null()
    integer :: first = 0
  end type window
contains
  subroutine push(head, v)
    type(node), pointer :: head
    integer, intent(in) :: v
    type(node), pointer :: fresh
    allocate(fresh)
    fresh%value = v
    fresh%next => head
    head => fresh
  end subroutine push

  integer function list_sum(head)
    type(node), pointer :: head
    type(node), pointer :: cur
    list_sum = 0
    cur => head
    do while (associated(cur))
      list_sum = list_sum + cur%value
      cur => cur%next
    end do
  end function list_sum

  subroutine free_list(head)
    type(node), pointer :: head
    type(node), pointer :: cur
    do while (associated(head))
      cur => head
      head => head%next
      deallocate(cur)
    end do
  end subroutine free_list
end module lists

program pointer_components
  use lists
  implicit none
  type(node), pointer :: head
  type(window) :: w, v
  real(8), target :: signal(10)
  integer :: i
  nullify(head)
  do i = 1, 5
    call push(head, i * i)
  end do
  print *, 'head', head%value, head%next%value, head%next%next%value
  print *, 'sum', list_sum(head), associated(head%next), associated(head%next%next%next%next%next)
  call free_list(head)
  print *, 'freed', associated(head)
  signal = [(dble(mod(7 * i, 10)), i = 1, 10)]
  print *, 'new window', associated(w%data), associated(w%peak), w%first
  w%data => signal
  w%first = 1
  print *, 'whole', lbound(w%data), ubound(w%data), sum(w%data)
  v%data => signal(3:7)
  v%first = 3
  print *, 'section', lbound(v%data), ubound(v%data), v%data
  v%peak => v%data(maxloc(v%data, 1))
  print *, 'peak', v%peak, associated(v%peak)
  v%peak = -1.0d0
  print *, 'through the peak', signal
  w%data => v%data
  print *, 'shared', size(w%data), associated(w%data, v%data)
  nullify(v%data)
  print *, 'nullified', associated(v%data), associated(w%data)
  !$acc parallel loop copy(signal)
  do i = 1, 10
    signal(i) = signal(i) * 2
  end do
  print *, 'device', w%data
end program pointer_components
