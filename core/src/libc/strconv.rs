//! strconv
