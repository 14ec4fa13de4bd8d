! Issue 16: default initialization of derived-type components (Fortran 2003 §4.5.3.4). A
! variable of the type gets the defaults when it comes into existence: a procedure's local at
! each entry, a saved or module variable once, an array's every element, `allocate`d elements,
! an `intent(out)` dummy at entry (§5.1.2.7); a structure constructor may leave defaulted
! components out (§4.5.9). Nested types take their components' defaults too, and an array of the
! type in a data clause carries them to the device.
module config_mod
  implicit none
  type vec2
    real :: x = 0.0, y = 0.0
  end type vec2
  type settings
    integer :: iterations = 100
    real(8) :: tolerance = 1.0d-6
    logical :: verbose = .false.
    character(len=8) :: label = 'default'
    integer :: weights(3) = [1, 2, 3]
    type(vec2) :: origin
    type(vec2) :: corner = vec2(1.0, 2.0)
  end type settings
  type(settings) :: global_settings
contains
  subroutine show(s)
    type(settings), intent(in) :: s
    print '(i0, 1x, es10.3, 1x, l1, 1x, a, 3(1x, i0), 4(1x, f4.1))', s%iterations, s%tolerance, &
      s%verbose, trim(s%label), s%weights, s%origin%x, s%origin%y, s%corner%x, s%corner%y
  end subroutine show

  subroutine reset(s)
    type(settings), intent(out) :: s
    s%label = 'reset'
  end subroutine reset

  integer function bump()
    type(settings) :: local
    local%iterations = local%iterations + 1
    bump = local%iterations
  end function bump
end module config_mod

program derived_defaults
  use config_mod
  implicit none
  type(settings) :: a, many(3)
  type(settings), allocatable :: heap(:)
  type(vec2) :: v
  integer :: i
  call show(a)
  call show(global_settings)
  a%iterations = 5
  a%weights(2) = 20
  call show(a)
  call reset(a)
  call show(a)
  print '(i0, 1x, i0)', bump(), bump()
  many(2)%label = 'second'
  do i = 1, 3
    call show(many(i))
  end do
  allocate(heap(2))
  heap(1)%verbose = .true.
  call show(heap(1))
  call show(heap(2))
  ! The defaulted values travel with the array to the device (OpenACC 2.0 §2.7: all the members
  ! of a derived-type variable in a data clause are copied).
  !$acc parallel loop copy(many)
  do i = 1, 3
    many(i)%iterations = many(i)%iterations + i * many(i)%weights(i)
    many(i)%corner%y = many(i)%corner%y * i
  end do
  print '(3(i0, 1x), 3f5.1)', (many(i)%iterations, i = 1, 3), (many(i)%corner%y, i = 1, 3)
  v = vec2(y=5.0)
  print '(2f5.1)', v%x, v%y
  a = settings(iterations=7, label='built')
  call show(a)
end program derived_defaults
