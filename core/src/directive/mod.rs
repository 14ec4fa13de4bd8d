//! The OpenACC 2.0 directive parser (spec chapter 2). Filled in by its own work item.
