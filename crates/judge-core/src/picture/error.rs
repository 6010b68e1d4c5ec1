//! Why a picture could not be painted as PNG.

/// Why a picture could not be painted as PNG.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error("the picture has no size")]
    NoSize,
    #[error("the picture: {0}")]
    Encoding(#[from] png::EncodingError),
}
