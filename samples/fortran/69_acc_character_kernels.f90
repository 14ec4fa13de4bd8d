! Issue 16: character data in device code. Fortran character comparison (`==`, `<`, with the
! shorter operand padded with blanks, Fortran 2003 §7.2.3), `len_trim` and character assignment
! inside compute constructs call the translation's helper routines, which are `routine seq`
! (OpenACC 2.0 §2.12.1) so the device may call them; the character arrays are copied like any
! array (§2.7).
program acc_character_kernels
  implicit none
  integer, parameter :: n = 12
  character(len=6) :: codes(n), tags(n)
  integer :: n_red, n_before_c, n_from_red, lens(n), i
  character(len=6) :: names(4)
  names(1) = 'red'
  names(2) = 'green'
  names(3) = 'blue'
  names(4) = 'violet'
  do i = 1, n
    codes(i) = names(mod(i * 7, 4) + 1)
  end do
  n_red = 0
  n_before_c = 0
  n_from_red = 0
  !$acc parallel loop copyin(codes) copyout(lens, tags) reduction(+:n_red, n_before_c, n_from_red)
  do i = 1, n
    if (codes(i) == 'red') n_red = n_red + 1
    if (codes(i) < 'c') n_before_c = n_before_c + 1
    if (codes(i)(1:1) /= 'g' .and. codes(i) >= 'red') n_from_red = n_from_red + 1
    lens(i) = len_trim(codes(i))
    if (lens(i) > 4) then
      tags(i) = 'long'
    else
      tags(i) = codes(i)(1:2)
    end if
  end do
  print '(3(i0, 1x))', n_red, n_before_c, n_from_red
  print '(12(i0, 1x))', lens
  print '(12(a, 1x))', (trim(tags(i)), i = 1, n)
end program acc_character_kernels
