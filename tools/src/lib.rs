//! Development tools for Shuai: match runner, test-suite runner, tuner.
