/**
 * An e-mail shown at a device width inside an inert frame: sandbox="" (no scripts, forms or same-origin
 * access) with the HTML in srcDoc, scaled down when the pane is narrower than the device.
 */
import { theme } from 'antd';
import { useEffect, useRef, useState } from 'react';

export type Device = 'desktop' | 'mobile';

const DEVICE_WIDTHS: Record<Device, number> = { desktop: 800, mobile: 375 };

interface PreviewFrameProps {
  html: string;
  device: Device;
  title: string;
  height?: number;
  testId?: string;
}

export function PreviewFrame({ html, device, title, height = 600, testId = 'template-preview-frame' }: PreviewFrameProps) {
  const { token } = theme.useToken();
  const outer = useRef<HTMLDivElement>(null);
  const [available, setAvailable] = useState<number>(DEVICE_WIDTHS.desktop);
  const mobile = device === 'mobile';
  // The phone gets a bezel around its screen; the desktop a browser bar above it.
  const bezel = mobile ? 10 : 0;
  const bar = mobile ? 0 : 28;
  const width = DEVICE_WIDTHS[device] + 2 * bezel;
  const scale = Math.min(1, available / width);
  // `height` is what the pane gives on screen, so a scaled-down frame shows more of the e-mail rather than less.
  const frameHeight = Math.round(height / scale);
  const fullHeight = frameHeight + bar + 2 * bezel;

  useEffect(() => {
    const element = outer.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setAvailable(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={outer} style={{ width: '100%' }}>
      <div style={{ width: width * scale, height: fullHeight * scale, margin: '0 auto' }}>
        <div
          data-device={device}
          style={{
            width,
            height: fullHeight,
            transform: `scale(${scale})`,
            transformOrigin: 'top left',
            padding: bezel,
            borderRadius: mobile ? 36 : token.borderRadiusLG,
            background: mobile ? '#1f2937' : token.colorBgContainer,
            border: mobile ? undefined : `1px solid ${token.colorBorderSecondary}`,
            boxShadow: token.boxShadowTertiary,
            overflow: 'hidden',
          }}
        >
          {!mobile && (
            <div
              style={{
                height: bar,
                display: 'flex',
                alignItems: 'center',
                gap: 6,
                padding: '0 12px',
                background: token.colorFillTertiary,
                borderBottom: `1px solid ${token.colorBorderSecondary}`,
              }}
            >
              {['#ff5f57', '#febc2e', '#28c840'].map((color) => (
                <span key={color} style={{ width: 10, height: 10, borderRadius: '50%', background: color }} />
              ))}
            </div>
          )}
          <iframe
            title={title}
            sandbox=""
            srcDoc={html}
            data-testid={testId}
            style={{
              display: 'block',
              width: DEVICE_WIDTHS[device],
              height: frameHeight,
              border: 0,
              borderRadius: mobile ? 26 : 0,
              background: '#fff',
            }}
          />
        </div>
      </div>
    </div>
  );
}
