! Optional and keyword arguments (Fortran 2003 §12.4.1), `present` (§13.7.91).
module stats
  implicit none
contains
  subroutine summary(x, n, scale, shift, total)
    integer, intent(in) :: n
    real, intent(in) :: x(n)
    real, intent(in), optional :: scale, shift
    real, intent(out), optional :: total
    real :: s, d
    s = 1.0
    d = 0.0
    if (present(scale)) s = scale
    if (present(shift)) d = shift
    print '(a, l1, 1x, l1, 1x, l1)', 'present: ', present(scale), present(shift), present(total)
    if (present(total)) total = s * sum(x) + d * n
    print '(a, f8.3)', 'mean: ', (s * sum(x) + d * n) / n
  end subroutine summary

  real function clamp(v, lo, hi)
    real, intent(in) :: v
    real, intent(in), optional :: lo, hi
    clamp = v
    if (present(lo)) clamp = max(clamp, lo)
    if (present(hi)) clamp = min(clamp, hi)
  end function clamp

  subroutine relay(v, hi)
    real, intent(in) :: v
    real, intent(in), optional :: hi
    ! An absent optional argument passed on stays absent.
    print '(a, f6.2)', 'relay: ', clamp(v, hi=hi)
  end subroutine relay
end module stats

program optional_keyword
  use stats
  implicit none
  real :: data(5), t
  data = [1.0, 2.5, -3.0, 4.0, 0.5]
  call summary(data, 5)
  call summary(data, 5, 2.0)
  call summary(data, 5, shift=1.0)
  call summary(n=5, x=data, total=t, scale=0.5)
  print '(a, f8.3)', 'total: ', t
  print '(3f6.2)', clamp(7.0), clamp(7.0, hi=5.0), clamp(-2.0, lo=-1.0, hi=1.0)
  print '(2f6.2)', clamp(0.5, 1.0), clamp(v=3.0, lo=0.0)
  call relay(9.0)
  call relay(9.0, 4.0)
end program optional_keyword
