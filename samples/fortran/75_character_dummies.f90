! Issue 16: scalar character dummy arguments, assumed-length (`character(len=*)`, Fortran 2003
! §5.1.1.5: the dummy takes the actual argument's length) and of a declared length, passed by
! reference (a procedure that assigns its dummy changes the actual), `optional` ones with
! `present`, and `len`/`len_trim`/substrings/comparison inside the procedure.
module text_tools
  implicit none
contains
  subroutine shout(s)
    character(len=*), intent(inout) :: s
    integer :: i, c
    do i = 1, len(s)
      c = iachar(s(i:i))
      if (c >= iachar('a') .and. c <= iachar('z')) s(i:i) = achar(c - 32)
    end do
  end subroutine shout

  integer function count_char(s, ch)
    character(len=*), intent(in) :: s
    character, intent(in) :: ch
    integer :: i
    count_char = 0
    do i = 1, len_trim(s)
      if (s(i:i) == ch) count_char = count_char + 1
    end do
  end function count_char

  subroutine report(label, value, unit_name)
    character(len=*), intent(in) :: label
    real, intent(in) :: value
    character(len=*), intent(in), optional :: unit_name
    if (present(unit_name)) then
      print '(a, a, f8.3, 1x, a)', label, ': ', value, unit_name
    else
      print '(a, a, f8.3)', label, ': ', value
    end if
  end subroutine report
end module text_tools

subroutine fixed_label(tag)
  implicit none
  character(len=6), intent(in) :: tag
  print '(3a, i0)', '[', tag, '] len=', len(tag)
end subroutine fixed_label

subroutine fill(out, ch)
  implicit none
  character(len=*), intent(out) :: out
  character, intent(in) :: ch
  integer :: i
  do i = 1, len(out)
    out(i:i) = ch
  end do
end subroutine fill

program character_dummies
  use text_tools
  implicit none
  character(len=20) :: word
  character(len=8) :: names(3)
  character(len=5) :: stars
  word = 'hello, world'
  call shout(word)
  print '(a, a, a)', '"', word, '"'
  call shout(word(1:5))
  print '(i0)', count_char('mississippi', 's')
  print '(i0)', count_char(word, 'L')
  names(1) = 'alpha'
  names(2) = 'beta'
  names(3) = 'gamma'
  call shout(names(2))
  print '(3(a, 1x))', names
  call report('pi', 3.14159)
  call report('g', 9.81, 'm/s2')
  call fixed_label('abcdef')
  call fixed_label(word)
  call fill(stars, '*')
  print '(a)', stars
  call fill(word(3:7), '-')
  print '(a)', trim(word)
  if (word(1:2) == 'HE' .and. word(3:3) < 'a') print '(a)', 'compare ok'
end program character_dummies
