//! Parts of a job run on their own: a range of its steps, and a dispatch
//! step's kernel and groups (what the debugger runs, `crate::debug`).

use super::{Groups, Job, JobError, Step, StepReport};
use crate::Kernel;
use sim_sched::DispatchOptions;

/// A dispatch step of a job ([`Job::dispatch_step`]).
#[derive(Debug, Clone, Copy)]
pub struct DispatchStep<'a> {
    /// Its shader's name ("" in a single-shader job).
    pub shader: &'a str,
    /// The kernel it runs.
    pub kernel: &'a Kernel,
    /// Its thread-group counts.
    pub groups: [u32; 3],
}

impl Job {
    /// Run steps `range` (indexes into the job's steps) as [`Job::run`]
    /// runs them, keeping the reports of those that ran when one fails (the
    /// debugger runs the steps before and after the dispatch it debugs).
    pub fn run_range(
        &self,
        options: &DispatchOptions,
        range: std::ops::Range<usize>,
    ) -> (Vec<StepReport>, Option<JobError>) {
        let mut reports = Vec::new();
        // The steps run on a worker of the dispatch pool, so that each
        // dispatch of more than one group starts on it at once instead of
        // handing its groups over from this thread and waiting
        // (`sim_sched::in_pool`). A schedule runs each dispatch on the
        // calling thread anyway.
        let threads = match options.schedule {
            None => options.threads,
            Some(_) => 1,
        };
        let error = sim_sched::in_pool(threads, || {
            self.run_steps(options, None, None, &mut reports, range)
                .err()
        });
        (reports, error)
    }

    /// The number of steps.
    pub fn step_count(&self) -> usize {
        self.steps.len()
    }

    /// Step `step` when it is a dispatch ([`DispatchStep`]: an indirect
    /// dispatch's group counts read from its arguments buffer now);
    /// `Ok(None)` for another kind of step or past the last.
    ///
    /// # Errors
    /// [`JobError::Spec`] when an indirect dispatch's arguments cannot be
    /// read.
    pub fn dispatch_step(&self, step: usize) -> Result<Option<DispatchStep<'_>>, JobError> {
        let Some(Step::Dispatch {
            groups,
            kernel,
            shader,
        }) = self.steps.get(step)
        else {
            return Ok(None);
        };
        let kernel = &self.kernels[*kernel];
        let groups = match *groups {
            Groups::Direct(g) => g,
            Groups::Indirect { args, offset } => kernel
                .indirect_groups(&self.resources[args].storage, offset)
                .map_err(|e| JobError::Spec {
                    at: None,
                    path: self.path.clone(),
                    key: format!("steps[{step}]"),
                    message: e.to_string(),
                })?,
        };
        Ok(Some(DispatchStep {
            shader: &self.shaders[*shader].name,
            kernel,
            groups,
        }))
    }
}
