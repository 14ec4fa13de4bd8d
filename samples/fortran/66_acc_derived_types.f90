! Derived types (Fortran 2003 §4.5): a type with scalar and array components, nested types,
! arrays of a type, structure constructors, component sections, a type in a module used by a
! procedure, and derived-type data on the device: a whole array of particles in a data clause
! ("all the members of that derived type are allocated and copied", OpenACC 2.0 §2.6) and a
! member's subarray ("members of variables of derived type may be specified, including a
! subarray of a member").
module shapes
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type point
    real(dp) :: x, y
  end type point
  type :: particle
    type(point) :: pos
    real(dp) :: mass
    integer :: id
    real(dp) :: hist(4)
  end type particle
contains
  function dist2(a, b) result(d)
    type(point), intent(in) :: a, b
    real(dp) :: d
    d = (a%x - b%x)**2 + (a%y - b%y)**2
  end function dist2

  subroutine shift(p, dx)
    type(particle), intent(inout) :: p
    real(dp), intent(in) :: dx
    p%pos%x = p%pos%x + dx
    p%hist(1) = dx
  end subroutine shift
end module shapes

program derived_types
  use shapes
  implicit none
  integer, parameter :: n = 8
  type(particle) :: ps(n), one
  type(point) :: origin
  type(point) :: q
  real(dp) :: total
  integer :: i

  origin = point(0.0_dp, 0.0_dp)
  do i = 1, n
    ps(i)%pos = point(real(i, dp), 2.0_dp * i)
    ps(i)%mass = 1.5_dp
    ps(i)%id = 100 + i
    ps(i)%hist = 0.0_dp
  end do
  ps%mass = ps%mass + 0.25_dp

  !$acc parallel loop copy(ps)
  do i = 1, n
    ps(i)%pos%x = ps(i)%pos%x * ps(i)%mass
    ps(i)%hist(2) = ps(i)%pos%y - ps(i)%pos%x
  end do

  total = 0.0_dp
  !$acc parallel loop copyin(ps) reduction(+:total)
  do i = 1, n
    total = total + ps(i)%pos%y
  end do

  one = ps(3)
  call shift(one, 0.5_dp)
  one%hist(3:4) = [7.0_dp, 9.0_dp]
  !$acc parallel loop copy(one%hist(2:4))
  do i = 2, 4
    one%hist(i) = one%hist(i) * 10.0_dp
  end do

  q%x = 3.0_dp
  q%y = 4.0_dp
  print *, 'dist2 =', dist2(origin, q)
  print *, 'x =', ps%pos%x
  print *, 'hist2 =', ps(1:4)%hist(2)
  print *, 'total =', total, 'ids', sum(ps%id)
  print *, 'one =', one
  print '(a, 2f8.3, i5)', 'point/id: ', ps(n)%pos, ps(n)%id
end program derived_types
